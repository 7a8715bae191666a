import type { AuditAction } from '../../shared/api/audit.ts';
import type { SessionUser } from '../../shared/api/session.ts';
import { auditRepository } from '../db/repositories/audit.ts';
import type { Executor } from '../db/repositories/executor.ts';

export interface AuditEntry {
  at: Date;
  /** Who acted; for a failed login, the user name that was tried. */
  actor: Pick<SessionUser, 'id' | 'username'> | { id: null; username: string } | null;
  action: AuditAction;
  target?: { type: string; id: string };
  outcome?: 'success' | 'failure';
  address: string | null;
  /** What the other fields cannot say, never patient data (e.g. the issuer a refused token claimed). */
  detail?: string;
}

/** Writes one audit row; call it with the transaction of the change it records. */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await auditRepository.insert(db, {
    at: entry.at.toISOString(),
    user_id: entry.actor?.id ?? null,
    username: entry.actor?.username ?? null,
    action: entry.action,
    target_type: entry.target?.type ?? null,
    target_id: entry.target?.id ?? null,
    outcome: entry.outcome ?? 'success',
    address: entry.address,
    // Only when given: rows without one write as they did before the column existed.
    ...(entry.detail === undefined ? {} : { detail: entry.detail }),
  });
}
