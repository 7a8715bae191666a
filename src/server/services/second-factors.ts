import QRCode from 'qrcode';
import {
  secondFactorTexts,
  type RecoveryCodes,
  type SecondFactorEnrolment,
  type SecondFactorStatus,
} from '../../shared/api/second-factor.ts';
import type { SessionUser } from '../../shared/api/session.ts';
import { newRecoveryCode, recoveryCodeHash } from '../auth/challenges.ts';
import { newTotpSecret, otpauthUri, totpTimeStep } from '../auth/totp.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { secondFactorsRepository } from '../db/repositories/second-factors.ts';
import { usersRepository } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { recordAudit } from './audit.ts';
import type { Requester } from './users.ts';

const recoveryCodeCount = 10;

export async function secondFactorStatus(
  context: AppContext,
  user: SessionUser,
): Promise<SecondFactorStatus> {
  const db = context.database.db;
  const factor = await secondFactorsRepository.find(db, user.id);
  const enrolled = factor !== undefined && factor.confirmed_at !== null;
  return {
    enrolled,
    recoveryCodesLeft: enrolled
      ? await secondFactorsRepository.unusedRecoveryCodes(db, user.id)
      : 0,
  };
}

type Enrolling = { user: Pick<SessionUser, 'id' | 'username'>; address: string };

/**
 * Begins enrolment: a new secret, awaiting a code from it; refused once a factor is confirmed.
 * The user is signed in, or at sign-in past the grace of a factor their role requires.
 */
export async function startEnrolment(
  context: AppContext,
  requester: Enrolling,
): Promise<SecondFactorEnrolment> {
  const { user } = requester;
  const secret = newTotpSecret();
  const now = context.now();
  await context.database.transaction(async (trx) => {
    const factor = await secondFactorsRepository.find(trx, user.id);
    if (factor?.confirmed_at != null) {
      throw new AppError(409, 'conflict', secondFactorTexts.alreadyEnrolled);
    }
    await secondFactorsRepository.startEnrolment(trx, user.id, secret, now.toISOString());
    await recordAudit(trx, {
      at: now,
      actor: user,
      action: 'second_factor_enrol',
      target: { type: 'user', id: user.id },
      address: requester.address,
    });
  });
  const uri = otpauthUri(secret, user.username);
  return { secret, otpauthUri: uri, qrCode: await QRCode.toDataURL(uri, { margin: 2 }) };
}

/**
 * Confirms enrolment with a code from the new secret; the factor then counts at sign-in, and ten
 * recovery codes are made and returned this once (only their hashes are kept).
 */
export async function confirmEnrolment(
  context: AppContext,
  requester: Enrolling,
  code: string,
): Promise<RecoveryCodes> {
  const now = context.now();
  return {
    recoveryCodes: await context.database.transaction((trx) =>
      confirmFactor(trx, now, { ...requester, code }),
    ),
  };
}

/**
 * Confirms enrolment within the caller's transaction; answers the new recovery codes. The grace
 * of a required factor ends with it, so that a factor removed later (`triage user reset-mfa`)
 * starts a fresh one.
 */
export async function confirmFactor(
  trx: Executor,
  now: Date,
  attempt: Enrolling & { code: string },
): Promise<string[]> {
  const { user } = attempt;
  const recoveryCodes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  const factor = await secondFactorsRepository.find(trx, user.id);
  if (factor === undefined || factor.confirmed_at !== null) {
    throw new AppError(409, 'conflict', secondFactorTexts.noEnrolment);
  }
  const timeStep = totpTimeStep(factor.secret, attempt.code.trim(), now);
  if (timeStep === undefined) {
    throw new AppError(400, 'validation_failed', secondFactorTexts.wrongCode, 'code');
  }
  await secondFactorsRepository.confirm(trx, user.id, now.toISOString(), timeStep);
  await secondFactorsRepository.replaceRecoveryCodes(
    trx,
    user.id,
    recoveryCodes.map(recoveryCodeHash),
  );
  await usersRepository.clearSecondFactorGrace(trx, user.id);
  await recordAudit(trx, {
    at: now,
    actor: { id: user.id, username: user.username },
    action: 'second_factor_confirm',
    target: { type: 'user', id: user.id },
    address: attempt.address,
  });
  return recoveryCodes;
}

/**
 * Removes a user's second factor and recovery codes (`triage user reset-mfa`), for a user who lost
 * the device and the codes; they sign in with the password alone until they enrol again (if their
 * role requires a factor, until a fresh grace from their next sign-in ends).
 */
export async function resetSecondFactor(
  context: AppContext,
  requester: Requester,
  username: string,
): Promise<boolean> {
  const now = context.now();
  return context.database.transaction(async (trx) => {
    const user = await usersRepository.findByUsername(trx, username.trim().toLowerCase());
    if (user === undefined) throw new AppError(404, 'not_found', `No user is named ${username}.`);
    const removed = await secondFactorsRepository.remove(trx, user.id);
    if (removed) {
      await recordAudit(trx, {
        at: now,
        actor: requester.user,
        action: 'second_factor_reset',
        target: { type: 'user', id: user.id },
        address: requester.address,
      });
    }
    return removed;
  });
}
