import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

/**
 * No row every save changes (issue 35). The kept counts (population_counts, agreement_counts,
 * kept-counts) and, on PostgreSQL, the live count (assessment_totals) and the worklists' lengths
 * (worklist_totals) were each raised in place by every save, so every save of the day waited for
 * the one before it to commit. Now each change inserts what it moves as rows of a delta table,
 * which no other transaction ever waits for; a read adds the deltas to the rows, and a periodic
 * compaction (keptCountsRepository.compact) folds the deltas into the rows in one statement per
 * table. SQLite runs one writer at a time: its triggers keep changing the two totals in place, and
 * only the services' kept counts go through deltas there, as on PostgreSQL.
 *
 * The rows stay as they were, so every count is what it was; the deltas start empty.
 */

/** The delta tables, created if absent (see testing/migrations.ts, which restores them). */
export async function createKeptCountDeltaTables<Schema>(db: Kysely<Schema>): Promise<void> {
  await sql`create table if not exists population_count_deltas (
    local_date text not null,
    condition text not null,
    risk_status text not null,
    n bigint not null
  )`.execute(db);
  await sql`create table if not exists agreement_count_deltas (
    local_date text not null,
    condition text not null,
    rule_status text not null,
    doctor_status text not null,
    agreed integer not null,
    n bigint not null
  )`.execute(db);
  await sql`create table if not exists assessment_total_deltas (
    live bigint not null,
    live_signed_off bigint not null
  )`.execute(db);
  await sql`create table if not exists worklist_total_deltas (
    list text not null,
    total bigint not null
  )`.execute(db);
}

/** How a PostgreSQL trigger function changes a worklist's length by `change` (SQL expressions). */
type TotalChange = (list: string, change: string) => string;

const totalInPlace: TotalChange = (list, change) =>
  `update worklist_totals set total = total + ${change} where list = '${list}';`;
const totalDelta: TotalChange = (list, change) =>
  `insert into worklist_total_deltas (list, total) values ('${list}', ${change});`;

/** The live count's function (20261122T1000-live-count) with `change` for its one write. */
function liveCountFunction(change: string): string {
  return `create or replace function assessment_totals_follow() returns trigger
    language plpgsql as $$
      declare
        live_change bigint := 0;
        signed_change bigint := 0;
      begin
        if tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then
          live_change := live_change + 1;
          if new.signed_off then signed_change := signed_change + 1; end if;
        end if;
        if tg_op in ('DELETE', 'UPDATE') and old.deleted_at is null then
          live_change := live_change - 1;
          if old.signed_off then signed_change := signed_change - 1; end if;
        end if;
        if live_change <> 0 or signed_change <> 0 then
          ${change}
        end if;
        return null;
      end $$`;
}

const liveInPlace = `update assessment_totals
          set live = live + live_change, live_signed_off = live_signed_off + signed_change
          where id = 1;`;
const liveDelta = `insert into assessment_total_deltas (live, live_signed_off)
          values (live_change, signed_change);`;

/** The worklists' functions (20261125T0300-worklists) with `total` for their length changes. */
function worklistFunctions(total: TotalChange): string[] {
  return [
    `create or replace function worklists_follow_up_refresh(p text) returns void
    language plpgsql as $$
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
            ${total('follow_up', '1')}
          elsif (current_id, current_level, current_at)
              is distinct from (latest_id, latest_rank, latest_at) then
            update patient_follow_ups
            set assessment_id = latest_id, level = latest_rank, assessed_at = latest_at
            where patient_record_id = p;
          end if;
        elsif current_id is not null then
          delete from patient_follow_ups where patient_record_id = p;
          ${total('follow_up', '-1')}
        end if;
      end $$`,
    `create or replace function worklists_assessments_follow() returns trigger
    language plpgsql as $$
      declare
        was_listed boolean := false;
        is_listed boolean := false;
        old_p text;
        new_p text;
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          was_listed := (old.signed_off and not old.review_locked and old.deleted_at is null);
          old_p := old.patient_record_id;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          is_listed := (new.signed_off and not new.review_locked and new.deleted_at is null);
          new_p := new.patient_record_id;
        end if;
        if was_listed <> is_listed then
          ${total('review', '(case when is_listed then 1 else -1 end)')}
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
  ];
}

/**
 * The statements that fold the deltas into the rows. PostgreSQL: one statement per table that
 * deletes the deltas it sees and adds them up, so a delta committed meanwhile is neither lost nor
 * counted twice (it stays for the next fold); the rows are changed in key order. SQLite, with one
 * writer at a time: add them up, then delete them.
 */
export function foldStatements(engine: DatabaseEngine): string[] {
  return [...keptCountFoldStatements(engine), ...totalFoldStatements(engine)];
}

/** The statements of foldStatements for the dashboard's kept counts as this migration keys them. */
function keptCountFoldStatements(engine: DatabaseEngine): string[] {
  if (engine === 'postgres') {
    return [
      `with moved as (delete from population_count_deltas
          returning local_date, condition, risk_status, n)
        insert into population_counts (local_date, condition, risk_status, n)
        select local_date, condition, risk_status, sum(n) from moved
        group by local_date, condition, risk_status
        order by local_date, condition, risk_status
        on conflict (local_date, condition, risk_status)
        do update set n = population_counts.n + excluded.n`,
      `with moved as (delete from agreement_count_deltas
          returning local_date, condition, rule_status, doctor_status, agreed, n)
        insert into agreement_counts
          (local_date, condition, rule_status, doctor_status, agreed, n)
        select local_date, condition, rule_status, doctor_status, agreed, sum(n) from moved
        group by local_date, condition, rule_status, doctor_status, agreed
        order by local_date, condition, rule_status, doctor_status, agreed
        on conflict (local_date, condition, rule_status, doctor_status, agreed)
        do update set n = agreement_counts.n + excluded.n`,
    ];
  }
  return [
    `insert into population_counts (local_date, condition, risk_status, n)
      select local_date, condition, risk_status, sum(n) from population_count_deltas
      group by local_date, condition, risk_status
      on conflict (local_date, condition, risk_status)
      do update set n = population_counts.n + excluded.n`,
    `delete from population_count_deltas`,
    `insert into agreement_counts (local_date, condition, rule_status, doctor_status, agreed, n)
      select local_date, condition, rule_status, doctor_status, agreed, sum(n)
      from agreement_count_deltas
      group by local_date, condition, rule_status, doctor_status, agreed
      on conflict (local_date, condition, rule_status, doctor_status, agreed)
      do update set n = agreement_counts.n + excluded.n`,
    `delete from agreement_count_deltas`,
  ];
}

/**
 * The statements of foldStatements for the live count and the worklists' lengths, which the
 * server's fold runs beside those of the per-unit kept counts (20261128T1600-unit-kept-counts).
 */
export function totalFoldStatements(engine: DatabaseEngine): string[] {
  if (engine === 'postgres') {
    return [
      `with moved as (delete from assessment_total_deltas returning live, live_signed_off),
        summed as (select sum(live) as live, sum(live_signed_off) as live_signed_off from moved)
        update assessment_totals
        set live = assessment_totals.live + summed.live,
          live_signed_off = assessment_totals.live_signed_off + summed.live_signed_off
        from summed where id = 1 and summed.live is not null`,
      `with moved as (delete from worklist_total_deltas returning list, total),
        summed as (select list, sum(total) as total from moved group by list)
        update worklist_totals set total = worklist_totals.total + summed.total
        from summed where worklist_totals.list = summed.list`,
    ];
  }
  return [
    `update assessment_totals
      set live = live + (select coalesce(sum(live), 0) from assessment_total_deltas),
        live_signed_off = live_signed_off
          + (select coalesce(sum(live_signed_off), 0) from assessment_total_deltas)
      where id = 1 and exists (select 1 from assessment_total_deltas)`,
    `delete from assessment_total_deltas`,
    `update worklist_totals set total = total + (
        select coalesce(sum(d.total), 0) from worklist_total_deltas d
        where d.list = worklist_totals.list
      )
      where list in (select list from worklist_total_deltas)`,
    `delete from worklist_total_deltas`,
  ];
}

async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await createKeptCountDeltaTables(db);
  if (engine !== 'postgres') return;
  await sql.raw(liveCountFunction(liveDelta)).execute(db);
  for (const statement of worklistFunctions(totalDelta)) await sql.raw(statement).execute(db);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine === 'postgres') {
    await sql.raw(liveCountFunction(liveInPlace)).execute(db);
    for (const statement of worklistFunctions(totalInPlace)) await sql.raw(statement).execute(db);
  }
  for (const statement of foldStatements(engine)) await sql.raw(statement).execute(db);
  for (const table of [
    'population_count_deltas',
    'agreement_count_deltas',
    'assessment_total_deltas',
    'worklist_total_deltas',
  ]) {
    await sql.raw(`drop table ${table}`).execute(db);
  }
}

export const keptCountDeltas: TriageMigration = {
  name: '20261128T0600-kept-count-deltas',
  up,
  down,
};
