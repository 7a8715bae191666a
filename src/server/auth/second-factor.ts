import { secondFactorTexts } from '../../shared/api/second-factor.ts';
import { tooManyAttemptsMessage } from '../../shared/api/session.ts';
import type { AppContext } from '../context.ts';
import { bool } from '../db/repositories/executor.ts';
import { secondFactorsRepository } from '../db/repositories/second-factors.ts';
import { loginThrottleRepository } from '../db/repositories/sessions.ts';
import { usersRepository } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { recordAudit } from '../services/audit.ts';
import { challengeHash, challengeLifetimeMs, recoveryCodeHash } from './challenges.ts';
import {
  completeSignIn,
  maxFailuresPerAddress,
  maxFailuresPerUsernameAndAddress,
  throttleKeys,
  throttleWindowMs,
  type SignedIn,
} from './login.ts';
import { totpTimeStep } from './totp.ts';

/**
 * The second step of a sign-in: a code from the user's authenticator app, or one of their
 * recovery codes (each works once). Throttled as passwords are (login.ts): each attempt is
 * counted before its code is checked, 5 for one user's second step and 30 for one address (shared
 * with passwords) in 15 minutes, then refused until the window ends.
 */
export async function answerChallenge(
  context: AppContext,
  attempt: { challengeId: string | undefined; code: string; address: string },
): Promise<SignedIn> {
  const db = context.database.db;
  const now = context.now();
  const idHash = challengeHash(attempt.challengeId ?? '');
  const challenge =
    attempt.challengeId === undefined
      ? undefined
      : await secondFactorsRepository.findChallenge(db, idHash);
  if (
    challenge === undefined ||
    now.getTime() - Date.parse(challenge.created_at) >= challengeLifetimeMs
  ) {
    throw new AppError(401, 'unauthenticated', secondFactorTexts.expired);
  }
  const user = await usersRepository.findById(db, challenge.user_id);
  if (user === undefined || bool(user.disabled)) {
    throw new AppError(401, 'unauthenticated', secondFactorTexts.expired);
  }
  const actor = { id: user.id, username: user.username };
  const target = { type: 'user', id: user.id };
  const userKey = `second-factor:${user.id}`;
  const addressKey = throttleKeys(user.username, attempt.address).address;
  const windowStartedBy = new Date(now.getTime() - throttleWindowMs).toISOString();

  const counts = await context.database.transaction(async (trx) => ({
    user: await loginThrottleRepository.increment(trx, userKey, now.toISOString(), windowStartedBy),
    address: await loginThrottleRepository.increment(
      trx,
      addressKey,
      now.toISOString(),
      windowStartedBy,
    ),
  }));
  const fail = async (message: string, status: 401 | 429) => {
    await recordAudit(db, {
      at: now,
      actor,
      action: 'second_factor_failed',
      target,
      outcome: 'failure',
      address: attempt.address,
    });
    throw new AppError(status, status === 429 ? 'too_many_attempts' : 'unauthenticated', message);
  };
  if (counts.user > maxFailuresPerUsernameAndAddress || counts.address > maxFailuresPerAddress) {
    return fail(tooManyAttemptsMessage, 429);
  }

  const code = attempt.code.trim();
  const factor = await secondFactorsRepository.find(db, user.id);
  if (factor === undefined || factor.confirmed_at === null) {
    return fail(secondFactorTexts.expired, 401);
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
        actor,
        action: 'second_factor_recovery_code_used',
        target,
        address: attempt.address,
      });
    }
    await loginThrottleRepository.clear(trx, [userKey]);
    await loginThrottleRepository.decrement(trx, addressKey);
    return true;
  });
  if (!accepted) return fail(secondFactorTexts.wrongCode, 401);
  return completeSignIn(context, user, attempt.address);
}
