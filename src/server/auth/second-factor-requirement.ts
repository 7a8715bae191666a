import type { Role } from '../../shared/api/users.ts';
import type { AppContext } from '../context.ts';
import { usersRepository, type UserRow } from '../db/repositories/users.ts';
import { recordAudit } from '../services/audit.ts';
import { hasSecondFactor } from './challenges.ts';

const dayMs = 86_400_000;

function roleRequiresSecondFactor(context: AppContext, role: Role): boolean {
  return context.config.mfaRequiredRoles.includes(role);
}

function graceEnd(context: AppContext, since: string): Date {
  return new Date(Date.parse(since) + context.config.mfaGraceDays * dayMs);
}

/**
 * At a right password of a user without a confirmed factor: when the grace of a second factor
 * required of their role ends (it begins at the first such sign-in, `attempt.at`, audited), or
 * null when their role requires none. At or after that time, sign-in asks them to set one up.
 */
export async function secondFactorGraceAtSignIn(
  context: AppContext,
  user: Pick<UserRow, 'id' | 'username' | 'role' | 'second_factor_required_since'>,
  attempt: { at: Date; address: string },
): Promise<Date | null> {
  if (!roleRequiresSecondFactor(context, user.role)) return null;
  if (user.second_factor_required_since !== null) {
    return graceEnd(context, user.second_factor_required_since);
  }
  // The time of the sign-in, which the caller compares with the grace's end: with no grace, the
  // end is that very time.
  const now = attempt.at;
  const since = await context.database.transaction(async (trx) => {
    const grace = await usersRepository.startSecondFactorGrace(trx, user.id, now.toISOString());
    if (grace.started) {
      await recordAudit(trx, {
        at: now,
        actor: { id: user.id, username: user.username },
        action: 'second_factor_grace_start',
        target: { type: 'user', id: user.id },
        address: attempt.address,
      });
    }
    return grace.since;
  });
  return graceEnd(context, since);
}

/**
 * For the session answer: when the grace of the signed-in user's required second factor ends,
 * or null when none is required of them, they have one, or no sign-in has begun the grace yet.
 */
export async function secondFactorRequiredBy(
  context: AppContext,
  userId: string,
): Promise<string | null> {
  const db = context.database.db;
  const user = await usersRepository.findById(db, userId);
  if (
    user === undefined ||
    user.second_factor_required_since === null ||
    !roleRequiresSecondFactor(context, user.role) ||
    (await hasSecondFactor(db, userId))
  ) {
    return null;
  }
  return graceEnd(context, user.second_factor_required_since).toISOString();
}
