import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { sqliteFollowUpTriggers } from './20261125T0300-worklists.ts';
import { followUpUpsert, sqliteRefreshInPlace } from './20261126T0100-follow-up-in-place.ts';
import type { TriageMigration } from './types.ts';

/**
 * SQLite: a new assessment sets its patient's follow-up row from itself. A patient's row follows
 * their latest live assessment, so an insert changes it only when the new assessment is live and
 * later than every other live one of the patient (a save's, made now): the row then is the new
 * assessment when a condition is at High or Moderate and the record is live, else none. Any other
 * insert (a deleted assessment, an earlier one) leaves the row as it was. The trigger recomputed
 * the row from the patient's assessments instead, looking the latest one up twice, on every save
 * that names a patient. The other triggers still recompute it; PostgreSQL's single function,
 * which takes the patient record's lock, is unchanged.
 */

const recordLive = (p: string) =>
  `exists (select 1 from patient_records pr where pr.id = ${p} and pr.deleted_at is null)`;

const insertTrigger = `create trigger worklists_follow_up_insert after insert on assessments
  when new.patient_record_id is not null and new.deleted_at is null
    and not exists (
      select 1 from assessments l
      where l.patient_record_id = new.patient_record_id and l.deleted_at is null
        and (l.created_at, l.id) > (new.created_at, new.id)
    ) begin
    delete from patient_follow_ups
    where patient_record_id = new.patient_record_id
      and (new.risk_rank >= 2 or not ${recordLive('new.patient_record_id')});
    insert into patient_follow_ups (patient_record_id, assessment_id, level, assessed_at)
      select new.patient_record_id, new.id, new.risk_rank, new.created_at
      where new.risk_rank < 2 and ${recordLive('new.patient_record_id')}
      ${followUpUpsert}
  end`;

async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine !== 'sqlite') return;
  await sql`drop trigger worklists_follow_up_insert`.execute(db);
  await sql.raw(insertTrigger).execute(db);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine !== 'sqlite') return;
  await sql`drop trigger worklists_follow_up_insert`.execute(db);
  // The insert trigger of the version before, which recomputes the row.
  const [recomputing] = sqliteFollowUpTriggers(sqliteRefreshInPlace);
  if (recomputing === undefined) throw new Error('The worklists define no insert trigger');
  await sql.raw(recomputing).execute(db);
}

export const followUpOnInsert: TriageMigration = {
  name: '20261126T1800-follow-up-on-insert',
  up,
  down,
};
