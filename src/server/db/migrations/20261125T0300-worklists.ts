import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * What the two worklists read, kept by the database in the same transaction as every change, so
 * that neither list visits more rows than it shows (docs/ARCHITECTURE.md, Worklists):
 *
 * - `assessments.risk_rank`: 0 when a condition is at High (TRUE), 1 when one is at Moderate
 *   (MAYBE) and none at High, else 2; kept from the results rows.
 * - `assessments.review_locked`: the assessment's doctor review is finalized; kept from the
 *   review rows.
 * - Awaiting Review is a partial index of signed-off, live assessments without a locked review,
 *   in the list's order (rank, sign-off time, id).
 * - `patient_follow_ups`: per live patient record whose latest live assessment has a condition
 *   at High or Moderate, that assessment, its rank (the level) and its time; the due date is
 *   computed from the settings when read, so changing them needs no rewrite.
 * - `worklist_totals`: the length of each list ('review', 'follow_up').
 *
 * On PostgreSQL the follow-up row of a patient is recomputed while holding that patient record's
 * row lock (`for no key update`, which inserts naming the record do not wait for), and each
 * statement after it reads what other writers committed: two changes of one patient's
 * assessments never both decide from what they saw before the other. Locks are taken in one
 * order, assessment rows, then the live count, the review total, the patient record, its
 * follow-up row and the follow-up total, so concurrent writers cannot deadlock on them.
 */

const listed = {
  sqlite: (row: 'new' | 'old') =>
    `(${row}.signed_off = 1 and ${row}.review_locked = 0 and ${row}.deleted_at is null)`,
  postgres: (row: 'new' | 'old') =>
    `(${row}.signed_off and not ${row}.review_locked and ${row}.deleted_at is null)`,
};

/** The rank of an assessment's results: 0 High, 1 Moderate, 2 neither. */
const rankOfResults = (assessmentId: string) => `coalesce((
    select min(case r.risk_status when 'TRUE' then 0 when 'MAYBE' then 1 end)
    from results r where r.assessment_id = ${assessmentId}
  ), 2)`;

/** SQLite: the patient record's latest live assessment, when it is to be followed up. */
export function sqliteFollowed(p: string, guard: string): string {
  return `select a.patient_record_id, a.id, a.risk_rank, a.created_at
      from assessments a
      where ${guard}
        and a.id = (
          select l.id from assessments l
          where l.patient_record_id = ${p} and l.deleted_at is null
          order by l.created_at desc, l.id desc limit 1
        )
        and a.risk_rank < 2
        and exists (select 1 from patient_records pr where pr.id = ${p} and pr.deleted_at is null)`;
}

/** SQLite: the statements that recompute one patient record's follow-up row (`p` an expression). */
export function sqliteRefresh(p: string, guard = 'true'): string {
  return `
    delete from patient_follow_ups where patient_record_id = ${p} and ${guard};
    insert into patient_follow_ups (patient_record_id, assessment_id, level, assessed_at)
      ${sqliteFollowed(p, guard)};`;
}

/**
 * SQLite: the triggers that keep each patient record's follow-up row, each running `refresh` for
 * the records a change touches.
 */
export function sqliteFollowUpTriggers(refresh: (p: string, guard?: string) => string): string[] {
  return [
    `create trigger worklists_follow_up_insert after insert on assessments
      when new.patient_record_id is not null begin
        ${refresh('new.patient_record_id')}
      end`,
    `create trigger worklists_follow_up_delete after delete on assessments
      when old.patient_record_id is not null begin
        ${refresh('old.patient_record_id')}
      end`,
    `create trigger worklists_follow_up_update
      after update of patient_record_id, deleted_at, risk_rank, created_at on assessments
      when (old.patient_record_id is not null or new.patient_record_id is not null)
        and (old.patient_record_id is not new.patient_record_id
          or old.deleted_at is not new.deleted_at
          or old.risk_rank <> new.risk_rank
          or old.created_at <> new.created_at) begin
        ${refresh('new.patient_record_id')}
        ${refresh('old.patient_record_id', 'old.patient_record_id is not new.patient_record_id')}
      end`,
    `create trigger worklists_follow_up_record after update of deleted_at on patient_records
      when old.deleted_at is not new.deleted_at begin
        ${refresh('new.id')}
      end`,
  ];
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const statements: string[] = [
    // The rank follows the results rows.
    `create trigger worklists_results_insert after insert on results
      when new.risk_status in ('TRUE', 'MAYBE') begin
        update assessments set risk_rank = (case new.risk_status when 'TRUE' then 0 else 1 end)
        where id = new.assessment_id
          and risk_rank > (case new.risk_status when 'TRUE' then 0 else 1 end);
      end`,
    `create trigger worklists_results_delete after delete on results
      when old.risk_status in ('TRUE', 'MAYBE') begin
        update assessments set risk_rank = ${rankOfResults('assessments.id')}
        where id = old.assessment_id;
      end`,
    `create trigger worklists_results_update after update of risk_status, assessment_id on results
      begin
        update assessments set risk_rank = ${rankOfResults('assessments.id')}
        where id in (old.assessment_id, new.assessment_id);
      end`,
    // review_locked follows the review rows.
    `create trigger worklists_reviews_insert after insert on doctor_reviews
      when new.locked = 1 begin
        update assessments set review_locked = 1
        where id = new.assessment_id and review_locked = 0;
      end`,
    `create trigger worklists_reviews_update after update of locked, assessment_id on doctor_reviews
      begin
        update assessments set review_locked = exists (
          select 1 from doctor_reviews d where d.assessment_id = assessments.id and d.locked = 1
        )
        where id in (old.assessment_id, new.assessment_id);
      end`,
    `create trigger worklists_reviews_delete after delete on doctor_reviews
      when old.locked = 1 begin
        update assessments set review_locked = exists (
          select 1 from doctor_reviews d where d.assessment_id = assessments.id and d.locked = 1
        )
        where id = old.assessment_id;
      end`,
    // The length of Awaiting Review.
    `create trigger worklists_review_total_insert after insert on assessments
      when ${listed.sqlite('new')} begin
        update worklist_totals set total = total + 1 where list = 'review';
      end`,
    `create trigger worklists_review_total_delete after delete on assessments
      when ${listed.sqlite('old')} begin
        update worklist_totals set total = total - 1 where list = 'review';
      end`,
    `create trigger worklists_review_total_update
      after update of signed_off, review_locked, deleted_at on assessments
      when ${listed.sqlite('new')} <> ${listed.sqlite('old')} begin
        update worklist_totals set total = total + ${listed.sqlite('new')} - ${listed.sqlite('old')}
        where list = 'review';
      end`,
    ...sqliteFollowUpTriggers(sqliteRefresh),
    // The length of Follow-up Due.
    `create trigger worklists_follow_up_total_insert after insert on patient_follow_ups begin
        update worklist_totals set total = total + 1 where list = 'follow_up';
      end`,
    `create trigger worklists_follow_up_total_delete after delete on patient_follow_ups begin
        update worklist_totals set total = total - 1 where list = 'follow_up';
      end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const statements: string[] = [
    `create function worklists_results_follow() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update assessments set risk_rank = (case new.risk_status when 'TRUE' then 0 else 1 end)
          where id = new.assessment_id
            and risk_rank > (case new.risk_status when 'TRUE' then 0 else 1 end);
          return null;
        end if;
        update assessments set risk_rank = ${rankOfResults('assessments.id')}
        where id = old.assessment_id
          and risk_rank is distinct from ${rankOfResults('assessments.id')};
        if tg_op = 'UPDATE' and new.assessment_id <> old.assessment_id then
          update assessments set risk_rank = ${rankOfResults('assessments.id')}
          where id = new.assessment_id
            and risk_rank is distinct from ${rankOfResults('assessments.id')};
        end if;
        return null;
      end $$`,
    `create trigger worklists_results_insert after insert on results for each row
      when (new.risk_status in ('TRUE', 'MAYBE')) execute function worklists_results_follow()`,
    `create trigger worklists_results_delete after delete on results for each row
      when (old.risk_status in ('TRUE', 'MAYBE')) execute function worklists_results_follow()`,
    `create trigger worklists_results_update after update of risk_status, assessment_id on results
      for each row execute function worklists_results_follow()`,

    `create function worklists_reviews_follow() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update assessments set review_locked = true
          where id = new.assessment_id and not review_locked;
          return null;
        end if;
        update assessments set review_locked = exists (
          select 1 from doctor_reviews d where d.assessment_id = assessments.id and d.locked
        )
        where id = old.assessment_id or (tg_op = 'UPDATE' and id = new.assessment_id);
        return null;
      end $$`,
    `create trigger worklists_reviews_insert after insert on doctor_reviews for each row
      when (new.locked) execute function worklists_reviews_follow()`,
    `create trigger worklists_reviews_update after update of locked, assessment_id on doctor_reviews
      for each row execute function worklists_reviews_follow()`,
    `create trigger worklists_reviews_delete after delete on doctor_reviews for each row
      when (old.locked) execute function worklists_reviews_follow()`,

    `create function worklists_follow_up_refresh(p text) returns void language plpgsql as $$
      declare
        record_live boolean;
        latest_id text;
        latest_at timestamptz;
        latest_rank integer;
        current_id text;
        current_level integer;
        current_at timestamptz;
        latest record;
      begin
        if p is null then return; end if;
        -- Every change of this patient's follow-up waits here for the others to commit; the
        -- statements below then read what they committed.
        select deleted_at is null into record_live from patient_records
        where id = p for no key update;
        -- The patient's assessments newest first, in the order of their index, to the first
        -- live one: with 'deleted_at is null' in the query, a planner without statistics (a
        -- database being filled) read the index of every live assessment on each call.
        if record_live then
          for latest in
            select id, created_at, risk_rank, deleted_at from assessments
            where patient_record_id = p
            order by created_at desc, id desc
          loop
            if latest.deleted_at is null then
              latest_id := latest.id;
              latest_at := latest.created_at;
              latest_rank := latest.risk_rank;
              exit;
            end if;
          end loop;
        end if;
        select assessment_id, level, assessed_at into current_id, current_level, current_at
        from patient_follow_ups where patient_record_id = p;
        if record_live and latest_id is not null and latest_rank < 2 then
          if current_id is null then
            insert into patient_follow_ups (patient_record_id, assessment_id, level, assessed_at)
            values (p, latest_id, latest_rank, latest_at);
            update worklist_totals set total = total + 1 where list = 'follow_up';
          elsif (current_id, current_level, current_at)
              is distinct from (latest_id, latest_rank, latest_at) then
            update patient_follow_ups
            set assessment_id = latest_id, level = latest_rank, assessed_at = latest_at
            where patient_record_id = p;
          end if;
        elsif current_id is not null then
          delete from patient_follow_ups where patient_record_id = p;
          update worklist_totals set total = total - 1 where list = 'follow_up';
        end if;
      end $$`,

    `create function worklists_assessments_follow() returns trigger language plpgsql as $$
      declare
        was_listed boolean := false;
        is_listed boolean := false;
        old_p text;
        new_p text;
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          was_listed := ${listed.postgres('old')};
          old_p := old.patient_record_id;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          is_listed := ${listed.postgres('new')};
          new_p := new.patient_record_id;
        end if;
        if was_listed <> is_listed then
          update worklist_totals set total = total + (case when is_listed then 1 else -1 end)
          where list = 'review';
        end if;
        if tg_op = 'UPDATE'
          and old_p is not distinct from new_p
          and old.deleted_at is not distinct from new.deleted_at
          and old.risk_rank = new.risk_rank
          and old.created_at = new.created_at then
          return null;
        end if;
        -- Two records in one order, so that two moves between them cannot deadlock.
        if old_p is not null and new_p is not null and old_p <> new_p then
          perform worklists_follow_up_refresh(least(old_p, new_p));
          perform worklists_follow_up_refresh(greatest(old_p, new_p));
        else
          perform worklists_follow_up_refresh(coalesce(new_p, old_p));
        end if;
        return null;
      end $$`,
    `create trigger worklists_assessments_follow
      after insert or delete
        or update of signed_off, review_locked, deleted_at, patient_record_id, risk_rank, created_at
      on assessments for each row execute function worklists_assessments_follow()`,

    `create function worklists_patient_records_follow() returns trigger language plpgsql as $$
      begin
        perform worklists_follow_up_refresh(new.id);
        return null;
      end $$`,
    `create trigger worklists_patient_records_follow after update of deleted_at on patient_records
      for each row when (old.deleted_at is distinct from new.deleted_at)
      execute function worklists_patient_records_follow()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

function listedWhere(engine: DatabaseEngine): RawBuilder<unknown> {
  return engine === 'postgres'
    ? sql`signed_off and not review_locked and deleted_at is null`
    : sql`signed_off = 1 and review_locked = 0 and deleted_at is null`;
}

async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .alterTable('assessments')
    .addColumn('risk_rank', 'integer', (c) => c.notNull().defaultTo(2))
    .execute();
  await db.schema
    .alterTable('assessments')
    .addColumn('review_locked', t.bool, (c) =>
      c.notNull().defaultTo(engine === 'postgres' ? false : 0),
    )
    .execute();
  // The stored assessments, before any trigger follows them.
  await sql`update assessments set risk_rank = ranked.rank
    from (
      select assessment_id, min(case risk_status when 'TRUE' then 0 else 1 end) as rank
      from results where risk_status in ('TRUE', 'MAYBE') group by assessment_id
    ) ranked
    where assessments.id = ranked.assessment_id`.execute(db);
  await sql`update assessments set review_locked = ${sql.lit(engine === 'postgres' ? true : 1)}
    where id in (
      select assessment_id from doctor_reviews
      where locked = ${sql.lit(engine === 'postgres' ? true : 1)}
    )`.execute(db);
  await sql`create index assessments_review_worklist_idx
    on assessments (risk_rank, signed_off_at, id) where ${listedWhere(engine)}`.execute(db);

  await db.schema
    .createTable('patient_follow_ups')
    .addColumn('patient_record_id', 'text', (c) => c.primaryKey().references('patient_records.id'))
    .addColumn('assessment_id', 'text', (c) => c.notNull())
    // The assessment's risk_rank: 0 High, 1 Moderate.
    .addColumn('level', 'integer', (c) => c.notNull())
    // The assessment's created_at.
    .addColumn('assessed_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('patient_follow_ups_due_idx')
    .on('patient_follow_ups')
    .columns(['level', 'assessed_at', 'patient_record_id'])
    .execute();
  await sql`insert into patient_follow_ups (patient_record_id, assessment_id, level, assessed_at)
    select a.patient_record_id, a.id, a.risk_rank, a.created_at
    from patient_records pr
    join assessments a on a.id = (
      select l.id from assessments l
      where l.patient_record_id = pr.id and l.deleted_at is null
      order by l.created_at desc, l.id desc limit 1
    )
    where pr.deleted_at is null and a.risk_rank < 2`.execute(db);

  await db.schema
    .createTable('worklist_totals')
    .addColumn('list', 'text', (c) => c.primaryKey())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into worklist_totals (list, total)
    select 'review', count(*) from assessments where ${listedWhere(engine)}`.execute(db);
  await sql`insert into worklist_totals (list, total)
    select 'follow_up', count(*) from patient_follow_ups`.execute(db);

  if (engine === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
}

const sqliteTriggerNames = [
  'results_insert',
  'results_delete',
  'results_update',
  'reviews_insert',
  'reviews_update',
  'reviews_delete',
  'review_total_insert',
  'review_total_delete',
  'review_total_update',
  'follow_up_insert',
  'follow_up_delete',
  'follow_up_update',
  'follow_up_record',
  'follow_up_total_insert',
  'follow_up_total_delete',
];

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine === 'postgres') {
    for (const [trigger, table] of [
      ['results_insert', 'results'],
      ['results_delete', 'results'],
      ['results_update', 'results'],
      ['reviews_insert', 'doctor_reviews'],
      ['reviews_update', 'doctor_reviews'],
      ['reviews_delete', 'doctor_reviews'],
      ['assessments_follow', 'assessments'],
      ['patient_records_follow', 'patient_records'],
    ] as const) {
      await sql.raw(`drop trigger worklists_${trigger} on ${table}`).execute(db);
    }
    for (const fn of [
      'worklists_results_follow()',
      'worklists_reviews_follow()',
      'worklists_assessments_follow()',
      'worklists_patient_records_follow()',
      'worklists_follow_up_refresh(text)',
    ]) {
      await sql.raw(`drop function ${fn}`).execute(db);
    }
  } else {
    for (const trigger of sqliteTriggerNames) {
      await sql.raw(`drop trigger worklists_${trigger}`).execute(db);
    }
  }
  await db.schema.dropTable('worklist_totals').execute();
  await db.schema.dropTable('patient_follow_ups').execute();
  await db.schema.dropIndex('assessments_review_worklist_idx').execute();
  await db.schema.alterTable('assessments').dropColumn('review_locked').execute();
  await db.schema.alterTable('assessments').dropColumn('risk_rank').execute();
}

export const worklists: TriageMigration = { name: '20261125T0300-worklists', up, down };
