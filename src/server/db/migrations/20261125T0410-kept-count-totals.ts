import { sql, type Kysely } from 'kysely';
import type { TriageMigration } from './types.ts';

/**
 * All-time rows in the kept counts: local_date '*' holds each key's total over every day (and
 * over assessments without a local date), kept with the day's row by the same upsert. The
 * dashboard's opening view, with no dates, then reads a few dozen rows rather than summing every
 * day's (35,000 agreement rows over two years: 30 to 70 ms on SQLite at a load of 8). '*' sorts
 * before every date, so a transaction still locks its rows in one order, and no date range
 * reaches it.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into population_counts (local_date, condition, risk_status, n)
    select '*', condition, risk_status, sum(n) from population_counts
    group by condition, risk_status`.execute(db);
  await sql`insert into agreement_counts
      (local_date, condition, rule_status, doctor_status, agreed, n)
    select '*', condition, rule_status, doctor_status, agreed, sum(n) from agreement_counts
    group by condition, rule_status, doctor_status, agreed`.execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from population_counts where local_date = '*'`.execute(db);
  await sql`delete from agreement_counts where local_date = '*'`.execute(db);
}

export const keptCountTotals: TriageMigration = {
  name: '20261125T0410-kept-count-totals',
  up,
  down,
};
