import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

/**
 * Counts the dashboard reads, kept by the application in the same transaction as every change
 * that moves them (src/server/db/repositories/kept-counts.ts says why not by triggers):
 *
 * - `population_counts`: live assessments per local creation date, condition and risk status;
 * - `agreement_counts`: the decided rows of finalized reviews of live assessments per local
 *   creation date of the assessment, condition, the rules' current status, the doctor's status
 *   ('' when none was given) and whether the doctor agreed.
 *
 * A date range then sums a few hundred rows instead of counting every results or review row
 * (about 2 s each at a million assessments). Both are filled here from the stored rows.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const yes = sql.raw(engine === 'postgres' ? 'true' : '1');
  const withoutRowid = sql.raw(engine === 'sqlite' ? ' without rowid' : '');
  await sql`create table population_counts (
    local_date text not null,
    condition text not null,
    risk_status text not null,
    n bigint not null,
    primary key (local_date, condition, risk_status)
  )${withoutRowid}`.execute(db);
  await sql`create table agreement_counts (
    local_date text not null,
    condition text not null,
    rule_status text not null,
    doctor_status text not null,
    agreed integer not null check (agreed in (0, 1)),
    n bigint not null,
    primary key (local_date, condition, rule_status, doctor_status, agreed)
  )${withoutRowid}`.execute(db);

  await sql`insert into population_counts (local_date, condition, risk_status, n)
    select coalesce(a.created_local_date, ''), r.condition, r.risk_status, count(*)
    from results r join assessments a on a.id = r.assessment_id
    where a.deleted_at is null
    group by coalesce(a.created_local_date, ''), r.condition, r.risk_status`.execute(db);
  await sql`insert into agreement_counts
      (local_date, condition, rule_status, doctor_status, agreed, n)
    select coalesce(a.created_local_date, ''), d.condition, r.risk_status,
      coalesce(d.doctor_status, ''), case when d.agreed = ${yes} then 1 else 0 end, count(*)
    from doctor_reviews d
    join assessments a on a.id = d.assessment_id
    join results r on r.assessment_id = d.assessment_id and r.condition = d.condition
    where d.locked = ${yes} and d.decided = ${yes} and a.deleted_at is null
    group by coalesce(a.created_local_date, ''), d.condition, r.risk_status,
      coalesce(d.doctor_status, ''), case when d.agreed = ${yes} then 1 else 0 end`.execute(db);

  // The latest disagreement comments per condition, newest first, without reading every review.
  await sql`create index doctor_reviews_disagreements_idx
    on doctor_reviews (condition, created_at desc, id desc)
    where locked = ${yes} and decided = ${yes} and agreed <> ${yes} and comments <> ''`.execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index doctor_reviews_disagreements_idx`.execute(db);
  await sql`drop table agreement_counts`.execute(db);
  await sql`drop table population_counts`.execute(db);
}

export const keptCounts: TriageMigration = { name: '20261125T0400-kept-counts', up, down };
