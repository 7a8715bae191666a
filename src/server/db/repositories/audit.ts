import type { Insertable, Selectable } from 'kysely';
import { withinScope, type Scope } from '../../auth/scope.ts';
import type { AuditEvent } from '../../../shared/api/audit.ts';
import type { AuditEventsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type AuditRow = Selectable<AuditEventsTable>;

export interface AuditFilter {
  username?: string | undefined;
  action?: string | undefined;
  fromIso?: string | undefined;
  toIso?: string | undefined;
  before?: number | undefined;
}

/** A listed row: the user's display name as it is now, null when the row names no user. */
export type ListedAuditRow = AuditRow & { display_name: string | null };

export function presentAuditEvent(row: AuditRow | ListedAuditRow): AuditEvent {
  return {
    id: row.id,
    at: row.at,
    userId: row.user_id,
    username: row.username,
    displayName: 'display_name' in row ? row.display_name : null,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    outcome: row.outcome,
    address: row.address,
    detail: row.detail,
  };
}

/**
 * The trail's rows that match, within the scope: a narrower scope than every unit holds the rows
 * of the users who work within it (a district's trail is its staff's), not the server's own or
 * a record system's.
 */
function filtered(db: Executor, scope: Scope, filter: AuditFilter) {
  let query = db.selectFrom('audit_events').selectAll();
  if (scope.kind !== 'everything') {
    query = query.where(
      'user_id',
      'in',
      db
        .selectFrom('user_units')
        .select('user_units.user_id')
        .$call(withinScope('user_units.org_unit_id', scope)),
    );
  }
  if (filter.username !== undefined) {
    // A refused CDS call names no user (what its token claimed is detail). Failed CDS calls
    // written before detail existed may hold a refused token's claim as their user name, and
    // cannot be told from a verified client's failures: a search by user passes them all by.
    query = query
      .where('username', '=', filter.username)
      .where((eb) =>
        eb.not(
          eb.and([
            eb('action', '=', 'cds_call'),
            eb('outcome', '=', 'failure'),
            eb('detail', 'is', null),
          ]),
        ),
      );
  }
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.fromIso !== undefined) query = query.where('at', '>=', filter.fromIso);
  if (filter.toIso !== undefined) query = query.where('at', '<', filter.toIso);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  return query.orderBy('id', 'desc');
}

/** Append-only: there is deliberately no update or delete here, and the database refuses both. */
export const auditRepository = {
  async insert(db: Executor, row: Insertable<AuditEventsTable>): Promise<void> {
    await db.insertInto('audit_events').values(row).execute();
  },

  /** A page of the trail, each row with its user's display name (the CSV gives ids alone). */
  list(db: Executor, scope: Scope, filter: AuditFilter, limit: number): Promise<ListedAuditRow[]> {
    return db
      .selectFrom(filtered(db, scope, filter).limit(limit).as('page'))
      .leftJoin('users', 'users.id', 'page.user_id')
      .selectAll('page')
      .select('users.display_name')
      .orderBy('page.id', 'desc')
      .execute();
  },

  stream(db: Executor, scope: Scope, filter: AuditFilter): AsyncIterableIterator<AuditRow> {
    return filtered(db, scope, filter).stream(500);
  },
};
