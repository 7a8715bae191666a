import {
  incorrectPasswordMessage,
  tooManyAttemptsMessage,
  type SessionUser,
} from '../../shared/api/session.ts';
import type { AppContext } from '../context.ts';
import { bool } from '../db/repositories/executor.ts';
import { loginFailuresRepository } from '../db/repositories/sessions.ts';
import { usersRepository } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { recordAudit } from '../services/audit.ts';
import { decoyPasswordHash, verifyPassword } from './passwords.ts';
import { startSession } from './sessions.ts';

export const throttleWindowMs = 15 * 60_000;
export const maxFailuresPerUsername = 5;
/** Several people may share a clinic's address, so the per-address limit is higher. */
export const maxFailuresPerAddress = 30;

export interface LoginResult {
  sessionId: string;
  user: SessionUser;
}

export async function login(
  context: AppContext,
  attempt: { username: string; password: string; address: string },
): Promise<LoginResult> {
  const db = context.database.db;
  const now = context.now();
  const username = attempt.username.trim().toLowerCase();
  const since = new Date(now.getTime() - throttleWindowMs).toISOString();

  const [byUsername, byAddress] = await Promise.all([
    loginFailuresRepository.countSince(db, { username }, since),
    loginFailuresRepository.countSince(db, { address: attempt.address }, since),
  ]);
  if (byUsername >= maxFailuresPerUsername || byAddress >= maxFailuresPerAddress) {
    await recordAudit(db, {
      at: now,
      actor: { id: null, username },
      action: 'login_failed',
      outcome: 'failure',
      address: attempt.address,
    });
    throw new AppError(429, 'too_many_attempts', tooManyAttemptsMessage);
  }

  const user = await usersRepository.findByUsername(db, username);
  const passwordMatches = await verifyPassword(
    attempt.password,
    user?.password_hash ?? (await decoyPasswordHash(context.passwordCost)),
  );
  if (user === undefined || !passwordMatches || bool(user.disabled)) {
    await context.database.transaction(async (trx) => {
      await loginFailuresRepository.insert(trx, username, attempt.address, now.toISOString());
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

  const sessionId = await startSession(context, user.id);
  await loginFailuresRepository.clearForUsername(db, username);
  const sessionUser: SessionUser = {
    id: user.id,
    username: user.username,
    displayName: user.display_name,
    role: user.role,
  };
  await recordAudit(db, {
    at: now,
    actor: sessionUser,
    action: 'login',
    target: { type: 'user', id: user.id },
    address: attempt.address,
  });
  return { sessionId, user: sessionUser };
}
