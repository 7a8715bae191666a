import { setTimeout as sleep } from 'node:timers/promises';
import {
  secondFactorTexts,
  type SecondFactorEnrolment,
  type SignInEnrolmentConfirmed,
} from '../../shared/api/second-factor.ts';
import { tooManyAttemptsMessage } from '../../shared/api/session.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { secondFactorsRepository } from '../db/repositories/second-factors.ts';
import { loginThrottleRepository } from '../db/repositories/sessions.ts';
import type { UserRow } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { recordAudit } from '../services/audit.ts';
import { confirmFactor, startEnrolment } from '../services/second-factors.ts';
import { challengedUser, challengeHash, recoveryCodeHash } from './challenges.ts';
import {
  completeSignIn,
  loginDelayMs,
  maxFailuresPerAddress,
  maxFailuresPerUsernameAndAddress,
  throttleKeys,
  throttleWindowMs,
  type SignedIn,
} from './login.ts';
import { totpTimeStep } from './totp.ts';

/**
 * An attempt at a step after the password, counted before its code is checked as passwords are
 * (login.ts): 5 for one user's steps from one address and 30 for one address (shared with
 * passwords) in 15 minutes, then refused (429, audited) until the window ends. One user's
 * failures from anywhere only slow their further steps (loginDelayMs), so a stranger who knows
 * the password cannot lock the real user out from another address. `accepted` gives the counts
 * back in the transaction that accepts the code; `refuse` audits a failure and throws.
 */
async function countAttempt(context: AppContext, user: UserRow, address: string) {
  const now = context.now();
  const keys = {
    userAtAddress: `second-factor:${user.id}\n${address}`,
    user: `second-factor:${user.id}`,
    address: throttleKeys(user.username, address).address,
  };
  const windowStartedBy = new Date(now.getTime() - throttleWindowMs).toISOString();
  const counts = await context.database.transaction(async (trx) => ({
    userAtAddress: await loginThrottleRepository.increment(
      trx,
      keys.userAtAddress,
      now.toISOString(),
      windowStartedBy,
    ),
    address: await loginThrottleRepository.increment(
      trx,
      keys.address,
      now.toISOString(),
      windowStartedBy,
    ),
    failuresOfUser: await loginThrottleRepository.current(trx, keys.user, windowStartedBy),
  }));
  const audited = async (error: AppError): Promise<never> => {
    await recordAudit(context.database.db, {
      at: now,
      actor: { id: user.id, username: user.username },
      action: 'second_factor_failed',
      target: { type: 'user', id: user.id },
      outcome: 'failure',
      address,
    });
    throw error;
  };
  const attempt = {
    async refuse(error: AppError): Promise<never> {
      await context.database.transaction((trx) =>
        loginThrottleRepository.increment(trx, keys.user, now.toISOString(), windowStartedBy),
      );
      return audited(error);
    },
    async accepted(trx: Executor): Promise<void> {
      await loginThrottleRepository.clear(trx, [keys.userAtAddress, keys.user]);
      await loginThrottleRepository.decrement(trx, keys.address);
    },
  };
  if (
    counts.userAtAddress > maxFailuresPerUsernameAndAddress ||
    counts.address > maxFailuresPerAddress
  ) {
    return audited(new AppError(429, 'too_many_attempts', tooManyAttemptsMessage));
  }
  const delay = loginDelayMs(counts.failuresOfUser);
  if (delay > 0) await sleep(delay);
  return attempt;
}

/**
 * The second step of a sign-in: a code from the user's authenticator app, or one of their
 * recovery codes (each works once); throttled by countAttempt.
 */
export async function answerChallenge(
  context: AppContext,
  attempt: { challengeId: string | undefined; code: string; address: string },
): Promise<SignedIn> {
  const db = context.database.db;
  const now = context.now();
  const user = await challengedUser(context, attempt.challengeId, 'code');
  const idHash = challengeHash(attempt.challengeId ?? '');
  const counted = await countAttempt(context, user, attempt.address);

  const code = attempt.code.trim();
  const factor = await secondFactorsRepository.find(db, user.id);
  if (factor === undefined || factor.confirmed_at === null) {
    return counted.refuse(new AppError(401, 'unauthenticated', secondFactorTexts.expired));
  }
  const timeStep = totpTimeStep(factor.secret, code, now);
  const accepted = await context.database.transaction(async (trx) => {
    const usedCode =
      timeStep === undefined
        ? (await secondFactorsRepository.useRecoveryCode(
            trx,
            user.id,
            recoveryCodeHash(code),
            now.toISOString(),
          ))
          ? 'recovery code'
          : undefined
        : (await secondFactorsRepository.acceptTimeStep(trx, user.id, timeStep))
          ? 'code'
          : undefined;
    if (usedCode === undefined) return false;
    // The challenge is answered once, whichever of two parallel answers comes first; the other
    // is rolled back, its code unused.
    if (!(await secondFactorsRepository.endChallenge(trx, idHash))) {
      throw new AppError(401, 'unauthenticated', secondFactorTexts.expired);
    }
    if (usedCode === 'recovery code') {
      await recordAudit(trx, {
        at: now,
        actor: { id: user.id, username: user.username },
        action: 'second_factor_recovery_code_used',
        target: { type: 'user', id: user.id },
        address: attempt.address,
      });
    }
    await counted.accepted(trx);
    return true;
  });
  if (!accepted) {
    return counted.refuse(new AppError(401, 'unauthenticated', secondFactorTexts.wrongCode));
  }
  return completeSignIn(context, user, attempt.address, null, user.firstStep);
}

/**
 * Enrolment at sign-in, for a user whose role requires a second factor after the grace: with the
 * challenge of their right password (and nothing else), a new secret, as on the account page.
 */
export async function startEnrolmentAtSignIn(
  context: AppContext,
  attempt: { challengeId: string | undefined; address: string },
): Promise<SecondFactorEnrolment> {
  const user = await challengedUser(context, attempt.challengeId, 'enrolment');
  return startEnrolment(context, {
    user: { id: user.id, username: user.username },
    address: attempt.address,
  });
}

/**
 * Confirms enrolment at sign-in with a code from the new secret: the factor counts from now on,
 * the challenge is answered, and the session begins; the recovery codes are answered this once.
 * Throttled by countAttempt, as the second step is.
 */
export async function confirmEnrolmentAtSignIn(
  context: AppContext,
  attempt: { challengeId: string | undefined; code: string; address: string },
): Promise<SignedIn & Pick<SignInEnrolmentConfirmed, 'recoveryCodes'>> {
  const user = await challengedUser(context, attempt.challengeId, 'enrolment');
  const idHash = challengeHash(attempt.challengeId ?? '');
  const counted = await countAttempt(context, user, attempt.address);
  let recoveryCodes: string[];
  try {
    recoveryCodes = await context.database.transaction(async (trx) => {
      const codes = await confirmFactor(trx, context.now(), {
        user: { id: user.id, username: user.username },
        address: attempt.address,
        code: attempt.code,
      });
      // Answered once: of two confirmations at once, the second is rolled back.
      if (!(await secondFactorsRepository.endChallenge(trx, idHash))) {
        throw new AppError(401, 'unauthenticated', secondFactorTexts.expired);
      }
      await counted.accepted(trx);
      return codes;
    });
  } catch (error) {
    if (error instanceof AppError) return counted.refuse(error);
    throw error;
  }
  return {
    ...(await completeSignIn(context, user, attempt.address, null, user.firstStep)),
    recoveryCodes,
  };
}
