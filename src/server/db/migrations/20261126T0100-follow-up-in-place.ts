import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import {
  sqliteFollowed,
  sqliteFollowUpTriggers,
  sqliteRefresh,
} from './20261125T0300-worklists.ts';
import type { TriageMigration } from './types.ts';

/**
 * SQLite: a patient record's follow-up row is changed in place instead of deleted and inserted
 * again. With every save that names a patient, the row was deleted from a random page of the
 * table and of its key's index and written anew at the table's end, and the list's length was
 * lowered and raised: now only the row's own page and the due index's entries change, and a save
 * that leaves the row as it was writes nothing. The rows and the list are the same as before.
 * PostgreSQL already updated the row in place (20261125T0300-worklists).
 */

/** The end of an insert of a follow-up row that changes the patient's row in place, when it differs. */
export const followUpUpsert = `on conflict (patient_record_id) do update
      set assessment_id = excluded.assessment_id,
        level = excluded.level,
        assessed_at = excluded.assessed_at
      where patient_follow_ups.assessment_id <> excluded.assessment_id
        or patient_follow_ups.level <> excluded.level
        or patient_follow_ups.assessed_at <> excluded.assessed_at;`;

export function sqliteRefreshInPlace(p: string, guard = 'true'): string {
  return `
    delete from patient_follow_ups
    where patient_record_id = ${p} and ${guard} and not exists (${sqliteFollowed(p, 'true')});
    insert into patient_follow_ups (patient_record_id, assessment_id, level, assessed_at)
      ${sqliteFollowed(p, guard)}
      ${followUpUpsert}`;
}

const triggerNames = [
  'worklists_follow_up_insert',
  'worklists_follow_up_delete',
  'worklists_follow_up_update',
  'worklists_follow_up_record',
];

async function replaceTriggers(
  db: Kysely<unknown>,
  refresh: (p: string, guard?: string) => string,
): Promise<void> {
  for (const name of triggerNames) await sql.raw(`drop trigger ${name}`).execute(db);
  for (const statement of sqliteFollowUpTriggers(refresh)) await sql.raw(statement).execute(db);
}

async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine === 'sqlite') await replaceTriggers(db, sqliteRefreshInPlace);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine === 'sqlite') await replaceTriggers(db, sqliteRefresh);
}

export const followUpInPlace: TriageMigration = {
  name: '20261126T0100-follow-up-in-place',
  up,
  down,
};
