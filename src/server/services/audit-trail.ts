import { Readable } from 'node:stream';
import type { Scope } from '../auth/scope.ts';
import type { z } from 'zod';
import type { AuditEvent, auditQuerySchema } from '../../shared/api/audit.ts';
import type { AppContext } from '../context.ts';
import { csvRow } from '../csv.ts';
import { auditRepository, presentAuditEvent, type AuditFilter } from '../db/repositories/audit.ts';
import { endOfDayExclusive, startOfDay } from '../time.ts';
import type { Requester } from '../auth/requester.ts';
import { recordAudit } from './audit.ts';

type AuditQuery = z.infer<typeof auditQuerySchema>;

function filterOf(context: AppContext, query: Omit<AuditQuery, 'limit'>): AuditFilter {
  const zone = context.config.timeZone;
  return {
    username: query.user?.trim().toLowerCase(),
    action: query.action,
    fromIso: query.from === undefined ? undefined : startOfDay(query.from, zone).toISOString(),
    toIso: query.to === undefined ? undefined : endOfDayExclusive(query.to, zone).toISOString(),
    before: query.before,
  };
}

export async function listAudit(
  context: AppContext,
  scope: Scope,
  query: AuditQuery,
): Promise<{ items: AuditEvent[]; nextBefore: number | null }> {
  const rows = await auditRepository.list(
    context.database.db,
    scope,
    filterOf(context, query),
    query.limit + 1,
  );
  const items = rows.slice(0, query.limit).map(presentAuditEvent);
  return { items, nextBefore: rows.length > query.limit ? (items.at(-1)?.id ?? null) : null };
}

const csvHeader = [
  'id',
  'at',
  'user_id',
  'username',
  'action',
  'target_type',
  'target_id',
  'outcome',
  'address',
  'detail',
];

/**
 * The audit trail downloaded as CSV. The download is itself an export, audited when it starts (a
 * download cut short was still handed out); the row names the file, never the filter.
 */
export async function auditTrailCsv(
  context: AppContext,
  requester: Requester,
  query: Omit<AuditQuery, 'limit' | 'before'>,
): Promise<Readable> {
  await recordAudit(context.database.db, {
    at: context.now(),
    actor: requester.user,
    action: 'export',
    target: { type: 'export', id: 'audit.csv' },
    address: requester.address,
  });
  return auditCsvLines(context, requester.scope, query);
}

/** The whole filtered trail as CSV, streamed from a database cursor. */
function auditCsvLines(
  context: AppContext,
  scope: Scope,
  query: Omit<AuditQuery, 'limit' | 'before'>,
): Readable {
  const filter = filterOf(context, query);
  async function* lines() {
    yield csvRow(csvHeader);
    for await (const row of auditRepository.stream(context.database.db, scope, filter)) {
      const e = presentAuditEvent(row);
      yield csvRow([
        e.id,
        e.at,
        e.userId,
        e.username,
        e.action,
        e.targetType,
        e.targetId,
        e.outcome,
        e.address,
        e.detail,
      ]);
    }
  }
  return Readable.from(lines());
}
