import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * Patient records: the person a clinic knows by a patient number, with their assessments over
 * time. The spec's `patients` table keeps what it always was, the demographics measured at one
 * assessment; an assessment may now also name a patient record. Every stored assessment stays as
 * it was, naming none.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('patient_records')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('number', 'text', (c) => c.notNull())
    // The number as compared: without case.
    .addColumn('number_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    // YYYY-MM-DD: a calendar date, not an instant.
    .addColumn('birth_date', 'text')
    .addColumn('gender', 'text', (c) => c.check(sql`gender in ('Male', 'Female')`))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id'))
    .addColumn('deleted_at', t.timestamp)
    .addColumn('deleted_by', 'text', (c) => c.references('users.id'))
    .execute();
  // Unique among live records; a deleted record's number may be given to someone else.
  await sql`create unique index patient_records_live_number_idx
    on patient_records (number_key) where deleted_at is null`.execute(db);

  // The words a patient search matches by their start: the name's and the number's. Each row
  // carries its record's number_key while the record is live (null once deleted) and all of the
  // record's words, so that a search finds, checks and orders the live records of its rarest
  // word in that word's range of one index: at 300,000 patients a surname has thousands of
  // records, and reading each of them (to check it is live, learn its number and look for the
  // search's other words) was most of a search's time (docs/BENCHMARKS.md).
  await db.schema
    .createTable('patient_record_words')
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('patient_record_id', 'text', (c) => c.notNull().references('patient_records.id'))
    .addColumn('live_number_key', 'text')
    .addColumn('record_words', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('patient_record_words_pk', ['word', 'patient_record_id'])
    .execute();
  await db.schema
    .createIndex('patient_record_words_search_idx')
    .on('patient_record_words')
    .columns(['word', 'live_number_key', 'patient_record_id', 'record_words'])
    .execute();
  await db.schema
    .createIndex('patient_record_words_record_idx')
    .on('patient_record_words')
    .column('patient_record_id')
    .execute();

  await db.schema
    .alterTable('assessments')
    .addColumn('patient_record_id', 'text', (c) => c.references('patient_records.id'))
    .execute();
  // A patient's timeline, newest first, and the assessment before a given one.
  await sql`create index assessments_patient_record_idx
    on assessments (patient_record_id, created_at desc, id desc)
    where patient_record_id is not null`.execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('assessments_patient_record_idx').execute();
  await db.schema.alterTable('assessments').dropColumn('patient_record_id').execute();
  await db.schema.dropTable('patient_record_words').execute();
  await db.schema.dropTable('patient_records').execute();
}

export const patientRecords: TriageMigration = { name: '20261125T0100-patient-records', up, down };
