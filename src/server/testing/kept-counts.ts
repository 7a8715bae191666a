import { sql } from 'kysely';
import { everythingScope } from '../auth/scope.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { assessmentsRepository } from '../db/repositories/assessments.ts';
import { worklistsRepository } from '../db/repositories/worklists.ts';

type Row = Record<string, unknown>;

function normalised(rows: Row[]): string[] {
  return rows
    .map((row) =>
      Object.entries(row)
        .map(
          ([key, value]) => `${key}=${typeof value === 'boolean' ? Number(value) : String(value)}`,
        )
        .join(' '),
    )
    .sort();
}

/**
 * The kept counts (migration kept-counts) per unit (migration unit-kept-counts) as sorted text
 * rows, rows of zero left out: each row plus its deltas not yet folded in (migration
 * kept-count-deltas).
 */
export async function keptCounts(
  handle: DatabaseHandle,
): Promise<{ population: string[]; agreement: string[] }> {
  const population = await sql<Row>`select local_date, org_unit_id, condition, risk_status,
      sum(n) as n
    from (
      select local_date, org_unit_id, condition, risk_status, n from population_counts
      union all
      select local_date, org_unit_id, condition, risk_status, n from population_count_deltas
    ) kept
    group by local_date, org_unit_id, condition, risk_status having sum(n) <> 0`.execute(handle.db);
  const agreement = await sql<Row>`select local_date, org_unit_id, condition, rule_status,
      doctor_status, agreed, sum(n) as n
    from (
      select local_date, org_unit_id, condition, rule_status, doctor_status, agreed, n
      from agreement_counts
      union all
      select local_date, org_unit_id, condition, rule_status, doctor_status, agreed, n
      from agreement_count_deltas
    ) kept
    group by local_date, org_unit_id, condition, rule_status, doctor_status, agreed
    having sum(n) <> 0`.execute(handle.db);
  return { population: normalised(population.rows), agreement: normalised(agreement.rows) };
}

/** The same figures counted from every stored row, with the all-time rows. */
export async function fullCounts(
  handle: DatabaseHandle,
): Promise<{ population: string[]; agreement: string[] }> {
  const yes = sql.raw(handle.engine === 'postgres' ? 'true' : '1');
  const population = await sql<Row>`select coalesce(a.created_local_date, '') as local_date,
      a.org_unit_id, r.condition, r.risk_status, count(*) as n
    from results r join assessments a on a.id = r.assessment_id
    where a.deleted_at is null
    group by coalesce(a.created_local_date, ''), a.org_unit_id, r.condition,
      r.risk_status`.execute(handle.db);
  const agreement = await sql<Row>`select coalesce(a.created_local_date, '') as local_date,
      a.org_unit_id, d.condition, r.risk_status as rule_status,
      coalesce(d.doctor_status, '') as doctor_status,
      case when d.agreed = ${yes} then 1 else 0 end as agreed, count(*) as n
    from doctor_reviews d
    join assessments a on a.id = d.assessment_id
    join results r on r.assessment_id = d.assessment_id and r.condition = d.condition
    where d.locked = ${yes} and d.decided = ${yes} and a.deleted_at is null
    group by coalesce(a.created_local_date, ''), a.org_unit_id, d.condition, r.risk_status,
      coalesce(d.doctor_status, ''), case when d.agreed = ${yes} then 1 else 0 end`.execute(
    handle.db,
  );
  return {
    population: normalised(withTotals(population.rows)),
    agreement: normalised(withTotals(agreement.rows)),
  };
}

/**
 * The rows with, under local_date '*', each key's total over the days (migration
 * kept-count-totals) and, under org_unit_id '*', over the units (migration unit-kept-counts).
 */
function withTotals(rows: Row[]): Row[] {
  const totals = new Map<string, Row>();
  for (const row of rows) {
    for (const local_date of [row.local_date, '*']) {
      for (const org_unit_id of [row.org_unit_id, '*']) {
        const key = { ...row, local_date, org_unit_id, n: 0 };
        const id = JSON.stringify(key);
        const total = totals.get(id) ?? key;
        total.n = Number(total.n) + Number(row.n);
        totals.set(id, total);
      }
    }
  }
  return [...totals.values()];
}

/** The live count and the worklists' lengths as the server reads them (each row plus deltas). */
export async function keptTotals(handle: DatabaseHandle): Promise<number[]> {
  const count = (signedOff?: boolean) =>
    assessmentsRepository.count(handle.db, handle.engine, everythingScope, {
      textTerms: [],
      numberTerms: [],
      signedOff,
    });
  return [
    await count(),
    await count(true),
    await worklistsRepository.keptTotal(handle.db, 'review'),
    await worklistsRepository.keptTotal(handle.db, 'follow_up'),
  ];
}

/** The same counted from the stored rows. */
export async function countedTotals(handle: DatabaseHandle): Promise<number[]> {
  const yes = sql.raw(handle.engine === 'postgres' ? 'true' : '1');
  const { rows } = await sql<Record<string, number | string>>`select
      (select count(*) from assessments where deleted_at is null) as live,
      (select count(*) from assessments where deleted_at is null and signed_off = ${yes})
        as signed_off,
      (select count(*) from assessments
        where deleted_at is null and signed_off = ${yes} and not exists (
          select 1 from doctor_reviews d where d.assessment_id = assessments.id and d.locked = ${yes}
        )) as review,
      (select count(*) from patient_follow_ups) as follow_up`.execute(handle.db);
  const row = rows[0] ?? {};
  return [row.live, row.signed_off, row.review, row.follow_up].map(Number);
}

/** Rows waiting in the delta tables (migration kept-count-deltas). */
export async function pendingDeltas(handle: DatabaseHandle): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select
      (select count(*) from population_count_deltas) + (select count(*) from agreement_count_deltas)
      + (select count(*) from assessment_total_deltas) + (select count(*) from worklist_total_deltas)
      as n`.execute(handle.db);
  return Number(rows[0]?.n ?? 0);
}
