import { setTimeout as sleep } from 'node:timers/promises';
import {
  incorrectPasswordMessage,
  passwordSignInOffMessage,
  tooManyAttemptsMessage,
  type SessionUser,
} from '../../shared/api/session.ts';
import type { AppContext } from '../context.ts';
import { loginThrottleRepository } from '../db/repositories/sessions.ts';
import { usersRepository, type UserRow } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { recordAudit } from '../services/audit.ts';
import type { SecondFactorChallengePurpose } from '../db/schema.ts';
import { hasSecondFactor, startChallenge } from './challenges.ts';
import { secondFactorGraceAtSignIn } from './second-factor-requirement.ts';
import { decoyPasswordHash, verifyPassword } from './passwords.ts';
import { startSession } from './sessions.ts';

/**
 * The sign-in policy (OWASP ASVS 2.2.1). Each counter lives for a fixed window from its first
 * attempt, so attempts refused during the window do not prolong it.
 * - One user name from one address: 5 failed attempts, then refused until the window ends.
 * - One address, whatever the names: 30 (several people may share a clinic's address).
 * - One user name from anywhere: failures slow further attempts (loginDelayMs) but never refuse
 *   them, so a stranger's guesses cannot keep the real user out.
 */
export const throttleWindowMs = 15 * 60_000;
export const maxFailuresPerUsernameAndAddress = 5;
export const maxFailuresPerAddress = 30;
/** Failures of one user name, from any address, that are free of delay. */
export const failuresBeforeDelay = 5;
export const maxLoginDelayMs = 3_000;

/** How long to wait before checking a password, given the user name's recent failures. */
export function loginDelayMs(failuresOfUsername: number): number {
  if (failuresOfUsername < failuresBeforeDelay) return 0;
  return Math.min(maxLoginDelayMs, 250 * 2 ** (failuresOfUsername - failuresBeforeDelay));
}

export interface SignedIn {
  sessionId: string;
  user: SessionUser;
  /** While the user's role requires a second factor they have not set up: when the grace ends. */
  secondFactorRequiredBy: string | null;
}

/**
 * Signed in, or the id of the challenge awaiting the next step: a code from a user with a second
 * factor, or (past the grace of a factor their role requires) setting one up.
 */
export type LoginResult = SignedIn | { challengeId: string; purpose: SecondFactorChallengePurpose };

export const throttleKeys = (username: string, address: string) => ({
  usernameAtAddress: `username+address:${username}\n${address}`,
  address: `address:${address}`,
  username: `username:${username}`,
});

export async function login(
  context: AppContext,
  attempt: { username: string; password: string; address: string },
): Promise<LoginResult> {
  const db = context.database.db;
  const now = context.now();
  const username = attempt.username.trim().toLowerCase();
  const keys = throttleKeys(username, attempt.address);
  const windowStartedBy = new Date(now.getTime() - throttleWindowMs).toISOString();

  // The attempt is counted before the password is checked, each count raised and read in one
  // statement: of any number of parallel attempts, at most the limit are checked.
  const counts = await context.database.transaction(async (trx) => ({
    usernameAtAddress: await loginThrottleRepository.increment(
      trx,
      keys.usernameAtAddress,
      now.toISOString(),
      windowStartedBy,
    ),
    address: await loginThrottleRepository.increment(
      trx,
      keys.address,
      now.toISOString(),
      windowStartedBy,
    ),
    failuresOfUsername: await loginThrottleRepository.current(trx, keys.username, windowStartedBy),
  }));
  if (
    counts.usernameAtAddress > maxFailuresPerUsernameAndAddress ||
    counts.address > maxFailuresPerAddress
  ) {
    await recordAudit(db, {
      at: now,
      actor: { id: null, username },
      action: 'login_failed',
      outcome: 'failure',
      address: attempt.address,
    });
    throw new AppError(429, 'too_many_attempts', tooManyAttemptsMessage);
  }

  const delay = loginDelayMs(counts.failuresOfUsername);
  if (delay > 0) await sleep(delay);

  const user = await usersRepository.findByUsername(db, username);
  const passwordMatches = await verifyPassword(
    attempt.password,
    user?.password_hash ?? (await decoyPasswordHash(context.passwordCost)),
  );
  if (user === undefined || !passwordMatches || user.disabled) {
    await context.database.transaction(async (trx) => {
      await loginThrottleRepository.increment(
        trx,
        keys.username,
        now.toISOString(),
        windowStartedBy,
      );
      await recordAudit(trx, {
        at: now,
        actor: user === undefined ? { id: null, username } : { id: user.id, username },
        action: 'login_failed',
        outcome: 'failure',
        address: attempt.address,
      });
    });
    throw new AppError(401, 'unauthenticated', incorrectPasswordMessage);
  }

  if (!context.config.localSignIn && !user.break_glass) {
    // Said only after a right password, so that it tells a stranger nothing of the account.
    await recordAudit(db, {
      at: now,
      actor: { id: user.id, username },
      action: 'login_failed',
      outcome: 'failure',
      address: attempt.address,
      detail: 'method=password refused: LOCAL_SIGN_IN is false and the account is not break-glass',
    });
    throw new AppError(403, 'forbidden', passwordSignInOffMessage);
  }

  // A success is no failure: the name starts afresh, and the address's count is given back.
  await context.database.transaction(async (trx) => {
    await loginThrottleRepository.clear(trx, [keys.usernameAtAddress, keys.username]);
    await loginThrottleRepository.decrement(trx, keys.address);
  });
  return nextStepAfterFirstFactor(context, user, attempt.address, { method: 'password' }, false);
}

/** How the first step of a sign-in was made, as its `login` audit row names it. */
export type SignInMethod =
  { method: 'password' } | { method: 'oidc'; issuer: string; idToken: string };

/**
 * After a right password or a provider's sign-in: the second step the user owes (a code, or past
 * the grace of a factor their role requires, setting one up), or the session. A provider that
 * did a second factor itself (`secondFactorDone`) settles both.
 */
export async function nextStepAfterFirstFactor(
  context: AppContext,
  user: UserRow,
  address: string,
  method: SignInMethod,
  secondFactorDone: boolean,
): Promise<LoginResult> {
  const now = context.now();
  if (secondFactorDone) return completeSignIn(context, user, address, null, method);
  const enrolled = await hasSecondFactor(context.database.db, user.id);
  const graceEnd = enrolled
    ? null
    : await secondFactorGraceAtSignIn(context, user, { at: now, address });
  if (enrolled || (graceEnd !== null && now >= graceEnd)) {
    const purpose = enrolled ? 'code' : 'enrolment';
    const challengeId = await startChallenge(
      context,
      user.id,
      purpose,
      method.method === 'oidc' ? method.idToken : null,
    );
    await recordAudit(context.database.db, {
      at: now,
      actor: { id: user.id, username: user.username },
      action: enrolled ? 'second_factor_challenge' : 'second_factor_enrolment_required',
      target: { type: 'user', id: user.id },
      address,
    });
    return { challengeId, purpose };
  }
  return completeSignIn(context, user, address, graceEnd?.toISOString() ?? null, method);
}

/** The audit row's detail of a sign-in: its method, and the provider's issuer. */
function methodDetail(method: SignInMethod): string {
  return method.method === 'oidc' ? `method=oidc issuer=${method.issuer}` : 'method=password';
}

/** Starts the session of a user who passed every step of sign-in, and audits the sign-in. */
export async function completeSignIn(
  context: AppContext,
  user: Pick<UserRow, 'id' | 'username' | 'display_name' | 'role'>,
  address: string,
  secondFactorRequiredBy: string | null = null,
  method: SignInMethod = { method: 'password' },
): Promise<SignedIn> {
  const sessionId = await startSession(
    context,
    user.id,
    method.method === 'oidc' ? method.idToken : null,
  );
  const sessionUser: SessionUser = {
    id: user.id,
    username: user.username,
    displayName: user.display_name,
    role: user.role,
  };
  await recordAudit(context.database.db, {
    at: context.now(),
    actor: sessionUser,
    action: 'login',
    target: { type: 'user', id: user.id },
    address,
    detail: methodDetail(method),
  });
  return { sessionId, user: sessionUser, secondFactorRequiredBy };
}
