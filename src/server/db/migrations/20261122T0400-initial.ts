import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

const conditionTables = ['symptoms', 'management', 'results', 'doctor_reviews'] as const;

async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  const identity = (name: string) =>
    engine === 'postgres'
      ? sql`${sql.ref(name)} bigint generated always as identity primary key`
      : sql`${sql.ref(name)} integer primary key autoincrement`;

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('nurse', 'doctor', 'admin')`))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('disabled', t.bool, (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('ended_at', t.timestamp)
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await sql`create table login_failures (
    ${identity('id')},
    username text not null,
    address text not null,
    at ${sql.raw(t.timestamp)} not null
  )`.execute(db);
  await db.schema
    .createIndex('login_failures_username_idx')
    .on('login_failures')
    .columns(['username', 'at'])
    .execute();
  await db.schema
    .createIndex('login_failures_address_idx')
    .on('login_failures')
    .columns(['address', 'at'])
    .execute();

  await sql`create table audit_events (
    ${identity('id')},
    at ${sql.raw(t.timestamp)} not null,
    user_id text,
    username text,
    action text not null,
    target_type text,
    target_id text,
    outcome text not null check (outcome in ('success', 'failure')),
    address text
  )`.execute(db);
  await db.schema.createIndex('audit_events_at_idx').on('audit_events').column('at').execute();
  await db.schema
    .createIndex('audit_events_user_idx')
    .on('audit_events')
    .columns(['user_id', 'at'])
    .execute();
  // The trail is append-only: the database itself refuses to change or remove a row.
  if (engine === 'postgres') {
    await sql`create function audit_events_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_events is append-only'; end $$`.execute(db);
    await sql`create trigger audit_events_no_update before update or delete on audit_events
      for each row execute function audit_events_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_events_no_update before update on audit_events
      begin select raise(abort, 'audit_events is append-only'); end`.execute(db);
    await sql`create trigger audit_events_no_delete before delete on audit_events
      begin select raise(abort, 'audit_events is append-only'); end`.execute(db);
  }

  await db.schema
    .createTable('patients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('age', 'integer')
    .addColumn('gender', 'text', (c) => c.check(sql`gender in ('Male', 'Female')`))
    .addColumn('height', t.real)
    .addColumn('weight', t.real)
    .addColumn('bmi', t.real, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('assessments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('patient_id', 'text', (c) => c.notNull().references('patients.id'))
    .addColumn('assessment_code', 'text', (c) => c.unique())
    .addColumn('assessment_complete', t.bool, (c) => c.notNull())
    .addColumn('total_score', t.real, (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id'))
    .addColumn('signed_off', t.bool, (c) => c.notNull().defaultTo(false))
    .addColumn('signed_off_at', t.timestamp)
    .addColumn('signed_off_by', 'text')
    .addColumn('signed_off_by_user_id', 'text', (c) => c.references('users.id'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted_at', t.timestamp)
    .addColumn('deleted_by', 'text', (c) => c.references('users.id'))
    .addColumn('search_text', 'text', (c) => c.notNull())
    .execute();
  // The history lists live assessments newest first and pages by (created_at, id).
  await db.schema
    .createIndex('assessments_live_created_idx')
    .on('assessments')
    .columns(['created_at desc', 'id desc'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('assessments_patient_idx')
    .on('assessments')
    .column('patient_id')
    .execute();

  await db.schema
    .createTable('symptoms')
    .addColumn('assessment_id', 'text', (c) => c.notNull().references('assessments.id'))
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('symptom_key', 'text', (c) => c.notNull())
    .addColumn('present', t.bool, (c) => c.notNull())
    .addColumn('severity', 'text')
    .addPrimaryKeyConstraint('symptoms_pk', ['assessment_id', 'condition', 'symptom_key'])
    .execute();

  await db.schema
    .createTable('risk_factors')
    .addColumn('assessment_id', 'text', (c) => c.primaryKey().references('assessments.id'))
    .addColumn('smoking', t.bool)
    .addColumn('family_history_dm2', t.bool)
    .addColumn('family_history_asthma', t.bool)
    .addColumn('family_history_hypertension', t.bool)
    .addColumn('family_history_hyperlipidaemia', t.bool)
    .addColumn('household_tb_exposure', t.bool)
    .execute();

  await db.schema
    .createTable('management')
    .addColumn('assessment_id', 'text', (c) => c.notNull().references('assessments.id'))
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('diagnosed', t.bool, (c) => c.notNull())
    .addColumn('last_doctor_visit', 'text')
    .addColumn('prescription_duration', 'text')
    .addPrimaryKeyConstraint('management_pk', ['assessment_id', 'condition'])
    .execute();

  await db.schema
    .createTable('results')
    .addColumn('assessment_id', 'text', (c) => c.notNull().references('assessments.id'))
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('total_score', t.real, (c) => c.notNull())
    .addColumn('factor_count', 'integer', (c) => c.notNull())
    .addColumn('risk_status', 'text', (c) =>
      c.notNull().check(sql`risk_status in ('FALSE', 'MAYBE', 'TRUE', 'DIAGNOSED', 'UNKNOWN')`),
    )
    .addColumn('symptom_score', t.real, (c) => c.notNull())
    .addColumn('risk_factor_score', t.real, (c) => c.notNull())
    .addColumn('management_score', t.real, (c) => c.notNull())
    .addColumn('comorbidity_score', t.real, (c) => c.notNull().defaultTo(0))
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('rule_set_version', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('results_pk', ['assessment_id', 'condition'])
    .execute();
  // The population panel counts statuses per condition.
  await db.schema
    .createIndex('results_condition_status_idx')
    .on('results')
    .columns(['condition', 'risk_status'])
    .execute();

  await db.schema
    .createTable('doctor_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('assessment_id', 'text', (c) => c.notNull().references('assessments.id'))
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('agreed', t.bool, (c) => c.notNull().defaultTo(false))
    .addColumn('comments', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('reviewed_by', 'text', (c) => c.notNull().defaultTo('Doctor'))
    .addColumn('reviewed_by_user_id', 'text', (c) => c.references('users.id'))
    .addColumn('locked', t.bool, (c) => c.notNull().defaultTo(false))
    .addUniqueConstraint('doctor_reviews_assessment_condition_key', ['assessment_id', 'condition'])
    .execute();
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  for (const table of conditionTables) await db.schema.dropTable(table).execute();
  await db.schema.dropTable('risk_factors').execute();
  await db.schema.dropTable('assessments').execute();
  await db.schema.dropTable('patients').execute();
  await db.schema.dropTable('audit_events').execute();
  if (engine === 'postgres') await sql`drop function audit_events_append_only()`.execute(db);
  await db.schema.dropTable('login_failures').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}

export const initial: TriageMigration = { name: '20261122T0400-initial', up, down };
