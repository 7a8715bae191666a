import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

const indexedColumns = ['patient_gender', 'patient_age', 'created_local_date'] as const;

/**
 * Copies of what the history searches besides text: the patient's gender and age, and the
 * creation date in the clinic's zone (the date part of the search text). Each is indexed among
 * live assessments, so 'male' or '45' no longer visits every patient row: at a million
 * assessments those searches took seconds. The patient row stays the record; the database
 * copies a change of gender or age over, and the application writes the copies with the
 * assessment. The days that have assessments are listed once each, so that a number can be
 * looked for in a few hundred dates rather than in every assessment.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await db.schema.alterTable('assessments').addColumn('patient_gender', 'text').execute();
  await db.schema.alterTable('assessments').addColumn('patient_age', 'integer').execute();
  await db.schema.alterTable('assessments').addColumn('created_local_date', 'text').execute();

  if (engine === 'postgres') {
    await sql`update assessments a
      set patient_gender = p.gender, patient_age = p.age,
          created_local_date = split_part(a.search_text, '|', 2)
      from patients p where p.id = a.patient_id`.execute(db);
    await sql`create function assessments_follow_patient() returns trigger language plpgsql as $$
      begin
        update assessments set patient_gender = new.gender, patient_age = new.age
        where patient_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger assessments_follow_patient
      after update of gender, age on patients
      for each row execute function assessments_follow_patient()`.execute(db);
  } else {
    await sql`update assessments set
      patient_gender = (select gender from patients where patients.id = assessments.patient_id),
      patient_age = (select age from patients where patients.id = assessments.patient_id),
      created_local_date = substr(search_text, instr(search_text, '|') + 1)`.execute(db);
    await sql`create trigger assessments_follow_patient after update of gender, age on patients
      begin
        update assessments set patient_gender = new.gender, patient_age = new.age
        where patient_id = new.id;
      end`.execute(db);
  }

  await sql`create table assessment_dates (local_date text primary key)`.execute(db);
  await sql`insert into assessment_dates (local_date)
    select distinct created_local_date from assessments
    where created_local_date is not null`.execute(db);
  if (engine === 'postgres') {
    await sql`create function assessment_dates_follow() returns trigger language plpgsql as $$
      begin
        insert into assessment_dates (local_date) values (new.created_local_date)
        on conflict do nothing;
        return null;
      end $$`.execute(db);
    await sql`create trigger assessment_dates_follow after insert on assessments
      for each row when (new.created_local_date is not null)
      execute function assessment_dates_follow()`.execute(db);
  } else {
    await sql`create trigger assessment_dates_follow after insert on assessments
      when new.created_local_date is not null
      begin
        insert or ignore into assessment_dates (local_date) values (new.created_local_date);
      end`.execute(db);
  }

  for (const column of indexedColumns) {
    await db.schema
      .createIndex(`assessments_live_${column}_idx`)
      .on('assessments')
      .columns([column, 'created_at desc', 'id desc'])
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  }
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine === 'postgres') {
    await sql`drop trigger assessment_dates_follow on assessments`.execute(db);
    await sql`drop function assessment_dates_follow()`.execute(db);
    await sql`drop trigger assessments_follow_patient on patients`.execute(db);
    await sql`drop function assessments_follow_patient()`.execute(db);
  } else {
    await sql`drop trigger assessment_dates_follow`.execute(db);
    await sql`drop trigger assessments_follow_patient`.execute(db);
  }
  await sql`drop table assessment_dates`.execute(db);
  for (const column of indexedColumns) {
    await db.schema.dropIndex(`assessments_live_${column}_idx`).execute();
    await db.schema.alterTable('assessments').dropColumn(column).execute();
  }
}

export const historyColumns: TriageMigration = { name: '20261122T1100-history-columns', up, down };
