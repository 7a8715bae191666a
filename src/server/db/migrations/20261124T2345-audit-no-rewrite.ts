import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

/**
 * The audit trail refuses the two ways round its update and delete triggers.
 *
 * SQLite: `REPLACE INTO` (and `INSERT OR REPLACE`) removes the row it conflicts with without
 * firing delete triggers, then inserts its own: a row rewritten in place. An insert that names the
 * id of a stored row is refused before anything happens. Ids the database assigns are positive;
 * while an insert has not been given one yet, `new.id` reads -1, which no stored row has.
 *
 * PostgreSQL: `TRUNCATE` fires no row triggers, so a statement trigger refuses it. (`INSERT ... ON
 * CONFLICT DO UPDATE` is an update and the row trigger of the first migration already refuses it.)
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine === 'postgres') {
    await sql`create trigger audit_events_no_truncate before truncate on audit_events
      for each statement execute function audit_events_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_events_no_replace before insert on audit_events
      when new.id > 0 and exists (select 1 from audit_events where id = new.id)
      begin select raise(abort, 'audit_events is append-only'); end`.execute(db);
  }
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine === 'postgres') {
    await sql`drop trigger audit_events_no_truncate on audit_events`.execute(db);
  } else {
    await sql`drop trigger audit_events_no_replace`.execute(db);
  }
}

export const auditNoRewrite: TriageMigration = {
  name: '20261124T2345-audit-no-rewrite',
  up,
  down,
};
