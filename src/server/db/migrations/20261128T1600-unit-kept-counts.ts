import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

/**
 * The dashboard's kept counts per organisation unit (issue 36): `population_counts`,
 * `agreement_counts` and their deltas gain `org_unit_id`, the unit of the assessment
 * (assessments.org_unit_id, which never changes), in their key. A scoped dashboard and a
 * district's roll-up then sum the rows of the units they cover instead of counting every results
 * and review row of those units.
 *
 * Beside them, `assessments_awaiting_review_unit_idx`: the assessments on Awaiting Review by unit,
 * which a roll-up counts per unit from the index alone.
 *
 * Each key also has all-units rows (org_unit_id '*'), the sum over every unit, which a read of
 * every unit (an `everything` scope) takes: it reads as many rows as before units, however many
 * units there are, where summing each unit's rows of a year would read hundreds of times more.
 *
 * The counts are computed anew from the stored rows, as 20261125T0400-kept-counts first filled
 * them, with their all-time rows ('*') and all-units rows: each unit's figures are what its
 * assessments give, never assumed. The deltas not yet folded in are dropped with the old tables, since what they stood for
 * is in the stored rows the counts are computed from.
 */

const withoutRowid = (engine: DatabaseEngine) =>
  sql.raw(engine === 'sqlite' ? ' without rowid' : '');

/** The per-unit delta tables, created if absent (see testing/migrations.ts, which makes them). */
export async function createUnitKeptCountDeltaTables<Schema>(db: Kysely<Schema>): Promise<void> {
  await sql`create table if not exists population_count_deltas (
    local_date text not null,
    org_unit_id text not null,
    condition text not null,
    risk_status text not null,
    n bigint not null
  )`.execute(db);
  await sql`create table if not exists agreement_count_deltas (
    local_date text not null,
    org_unit_id text not null,
    condition text not null,
    rule_status text not null,
    doctor_status text not null,
    agreed integer not null,
    n bigint not null
  )`.execute(db);
}

async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const yes = sql.raw(engine === 'postgres' ? 'true' : '1');
  for (const table of [
    'population_count_deltas',
    'agreement_count_deltas',
    'population_counts',
    'agreement_counts',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
  // The unit first: a unit's rows of a date range, or its all-time row, are one range of the key,
  // as are all units' ('*'); a read of some units seeks each, never reading another unit's rows.
  await sql`create table population_counts (
    local_date text not null,
    org_unit_id text not null,
    condition text not null,
    risk_status text not null,
    n bigint not null,
    primary key (org_unit_id, local_date, condition, risk_status)
  )${withoutRowid(engine)}`.execute(db);
  await sql`create table agreement_counts (
    local_date text not null,
    org_unit_id text not null,
    condition text not null,
    rule_status text not null,
    doctor_status text not null,
    agreed integer not null check (agreed in (0, 1)),
    n bigint not null,
    primary key (org_unit_id, local_date, condition, rule_status, doctor_status, agreed)
  )${withoutRowid(engine)}`.execute(db);
  await createUnitKeptCountDeltaTables(db);

  await sql`insert into population_counts (local_date, org_unit_id, condition, risk_status, n)
    select coalesce(a.created_local_date, ''), a.org_unit_id, r.condition, r.risk_status, count(*)
    from results r join assessments a on a.id = r.assessment_id
    where a.deleted_at is null
    group by coalesce(a.created_local_date, ''), a.org_unit_id, r.condition, r.risk_status`.execute(
    db,
  );
  await sql`insert into agreement_counts
      (local_date, org_unit_id, condition, rule_status, doctor_status, agreed, n)
    select coalesce(a.created_local_date, ''), a.org_unit_id, d.condition, r.risk_status,
      coalesce(d.doctor_status, ''), case when d.agreed = ${yes} then 1 else 0 end, count(*)
    from doctor_reviews d
    join assessments a on a.id = d.assessment_id
    join results r on r.assessment_id = d.assessment_id and r.condition = d.condition
    where d.locked = ${yes} and d.decided = ${yes} and a.deleted_at is null
    group by coalesce(a.created_local_date, ''), a.org_unit_id, d.condition, r.risk_status,
      coalesce(d.doctor_status, ''), case when d.agreed = ${yes} then 1 else 0 end`.execute(db);
  // All units' rows of each day, then every row's all-time row (of each unit and of all units).
  await sql`insert into population_counts (local_date, org_unit_id, condition, risk_status, n)
    select local_date, '*', condition, risk_status, sum(n) from population_counts
    group by local_date, condition, risk_status`.execute(db);
  await sql`insert into agreement_counts
      (local_date, org_unit_id, condition, rule_status, doctor_status, agreed, n)
    select local_date, '*', condition, rule_status, doctor_status, agreed, sum(n)
    from agreement_counts
    group by local_date, condition, rule_status, doctor_status, agreed`.execute(db);
  await sql`insert into population_counts (local_date, org_unit_id, condition, risk_status, n)
    select '*', org_unit_id, condition, risk_status, sum(n) from population_counts
    group by org_unit_id, condition, risk_status`.execute(db);
  await sql`insert into agreement_counts
      (local_date, org_unit_id, condition, rule_status, doctor_status, agreed, n)
    select '*', org_unit_id, condition, rule_status, doctor_status, agreed, sum(n)
    from agreement_counts
    group by org_unit_id, condition, rule_status, doctor_status, agreed`.execute(db);

  // The terms of the Awaiting Review worklist's partial index, word for word (20261125T0300).
  const awaiting =
    engine === 'postgres'
      ? sql`signed_off and not review_locked and deleted_at is null`
      : sql`signed_off = 1 and review_locked = 0 and deleted_at is null`;
  await sql`create index assessments_awaiting_review_unit_idx on assessments (org_unit_id)
    where ${awaiting}`.execute(db);
}

/** Back to one count per key over every unit: each key's all-units rows and deltas. */
async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await sql`drop index assessments_awaiting_review_unit_idx`.execute(db);
  await sql`create table population_counts_folded as
    select local_date, condition, risk_status, sum(n) as n from (
      select local_date, condition, risk_status, n from population_counts
      where org_unit_id = '*'
      union all
      select local_date, condition, risk_status, n from population_count_deltas
      where org_unit_id = '*'
    ) kept group by local_date, condition, risk_status`.execute(db);
  await sql`create table agreement_counts_folded as
    select local_date, condition, rule_status, doctor_status, agreed, sum(n) as n from (
      select local_date, condition, rule_status, doctor_status, agreed, n from agreement_counts
      where org_unit_id = '*'
      union all
      select local_date, condition, rule_status, doctor_status, agreed, n
      from agreement_count_deltas
      where org_unit_id = '*'
    ) kept group by local_date, condition, rule_status, doctor_status, agreed`.execute(db);
  for (const table of [
    'population_count_deltas',
    'agreement_count_deltas',
    'population_counts',
    'agreement_counts',
  ]) {
    await sql`drop table ${sql.table(table)}`.execute(db);
  }
  await sql`create table population_counts (
    local_date text not null,
    condition text not null,
    risk_status text not null,
    n bigint not null,
    primary key (local_date, condition, risk_status)
  )${withoutRowid(engine)}`.execute(db);
  await sql`create table agreement_counts (
    local_date text not null,
    condition text not null,
    rule_status text not null,
    doctor_status text not null,
    agreed integer not null check (agreed in (0, 1)),
    n bigint not null,
    primary key (local_date, condition, rule_status, doctor_status, agreed)
  )${withoutRowid(engine)}`.execute(db);
  await sql`insert into population_counts (local_date, condition, risk_status, n)
    select local_date, condition, risk_status, n from population_counts_folded`.execute(db);
  await sql`insert into agreement_counts
      (local_date, condition, rule_status, doctor_status, agreed, n)
    select local_date, condition, rule_status, doctor_status, agreed, n
    from agreement_counts_folded`.execute(db);
  await sql`drop table population_counts_folded`.execute(db);
  await sql`drop table agreement_counts_folded`.execute(db);
  await sql`create table population_count_deltas (
    local_date text not null,
    condition text not null,
    risk_status text not null,
    n bigint not null
  )`.execute(db);
  await sql`create table agreement_count_deltas (
    local_date text not null,
    condition text not null,
    rule_status text not null,
    doctor_status text not null,
    agreed integer not null,
    n bigint not null
  )`.execute(db);
}

/**
 * The statements that fold the per-unit deltas into the rows, as 20261128T0600-kept-count-deltas
 * folds the others (its foldStatements, whose last four concern the live count and the
 * worklists' lengths and stay as they were).
 */
export function unitFoldStatements(engine: DatabaseEngine): string[] {
  if (engine === 'postgres') {
    return [
      `with moved as (delete from population_count_deltas
          returning local_date, org_unit_id, condition, risk_status, n)
        insert into population_counts (local_date, org_unit_id, condition, risk_status, n)
        select local_date, org_unit_id, condition, risk_status, sum(n) from moved
        group by local_date, org_unit_id, condition, risk_status
        order by org_unit_id, local_date, condition, risk_status
        on conflict (org_unit_id, local_date, condition, risk_status)
        do update set n = population_counts.n + excluded.n`,
      `with moved as (delete from agreement_count_deltas
          returning local_date, org_unit_id, condition, rule_status, doctor_status, agreed, n)
        insert into agreement_counts
          (local_date, org_unit_id, condition, rule_status, doctor_status, agreed, n)
        select local_date, org_unit_id, condition, rule_status, doctor_status, agreed, sum(n)
        from moved
        group by local_date, org_unit_id, condition, rule_status, doctor_status, agreed
        order by org_unit_id, local_date, condition, rule_status, doctor_status, agreed
        on conflict (org_unit_id, local_date, condition, rule_status, doctor_status, agreed)
        do update set n = agreement_counts.n + excluded.n`,
    ];
  }
  return [
    `insert into population_counts (local_date, org_unit_id, condition, risk_status, n)
      select local_date, org_unit_id, condition, risk_status, sum(n) from population_count_deltas
      group by local_date, org_unit_id, condition, risk_status
      on conflict (org_unit_id, local_date, condition, risk_status)
      do update set n = population_counts.n + excluded.n`,
    `delete from population_count_deltas`,
    `insert into agreement_counts
        (local_date, org_unit_id, condition, rule_status, doctor_status, agreed, n)
      select local_date, org_unit_id, condition, rule_status, doctor_status, agreed, sum(n)
      from agreement_count_deltas
      group by local_date, org_unit_id, condition, rule_status, doctor_status, agreed
      on conflict (org_unit_id, local_date, condition, rule_status, doctor_status, agreed)
      do update set n = agreement_counts.n + excluded.n`,
    `delete from agreement_count_deltas`,
  ];
}

export const unitKeptCounts: TriageMigration = {
  name: '20261128T1600-unit-kept-counts',
  up,
  down,
};
