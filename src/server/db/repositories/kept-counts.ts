import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { AgreementCountsTable, Database, PopulationCountsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

/*
 * The dashboard's kept counts (migration kept-counts): live assessments per local creation date,
 * condition and risk status, and the decided rows of finalized reviews of live assessments per
 * local date, condition, rules' status, doctor's status and agreement.
 *
 * Kept by the services rather than by triggers. Each change collects what it moves into a
 * KeptCountChanges and applies it once, as its last write, one upsert per table with the keys in
 * one fixed order. On PostgreSQL `n = n + delta` locks the row until commit, and two
 * transactions that lock two rows in opposite orders deadlock: row triggers would lock in the
 * order rows change, and an update removes the old results (in the order the table happens to
 * hold them) before it adds the new ones, so an update from MAYBE to TRUE beside one from TRUE to
 * MAYBE could each wait for the other. Applied once, sorted, population before agreement, every
 * transaction takes these locks in the same order, after the assessment row it changes (the
 * locks those changes take first). The contributions a change takes away are read after its
 * assessment row is locked, so a review lock and a delete of the same assessment each see what the
 * other committed. SQLite's group commit runs each change in a savepoint of its own, which takes
 * its counts back with everything else if it fails.
 *
 * Every writer of results, review locks or an assessment's deleted_at must do the same: the
 * assessment services, the review service and the seed do.
 */

/** Whole local days (YYYY-MM-DD), either end open. */
export interface LocalDateRange {
  from?: string | undefined;
  to?: string | undefined;
}

export type AgreementCountSum = Omit<AgreementCountsTable, 'n' | 'local_date'> & {
  n: number | string;
};

/** No dates: the all-time rows; otherwise the days of the range, never the all-time rows. */
function dateCondition(
  eb: ExpressionBuilder<Database, 'population_counts' | 'agreement_counts'>,
  range: LocalDateRange,
): Expression<SqlBool> {
  if (range.from === undefined && range.to === undefined) {
    return eb('local_date', '=', allTime);
  }
  const from = eb('local_date', '>=', range.from ?? earliestDate);
  return range.to === undefined ? from : eb.and([from, eb('local_date', '<=', range.to)]);
}

export type PopulationCountKey = Omit<PopulationCountsTable, 'n'>;
export type AgreementCountKey = Omit<AgreementCountsTable, 'n'>;

/** What one assessment adds to the kept counts while it is live. */
export interface Contributions {
  population: PopulationCountKey[];
  agreement: AgreementCountKey[];
}

const separator = '\u0001';

/**
 * The local_date of each key's all-time row (migration kept-count-totals): it sorts before every
 * date, and no date range reaches it.
 */
export const allTime = '*';

/** The first date a range can hold: above '*' and '' (assessments without a local date). */
const earliestDate = '0';

function populationKey(key: PopulationCountKey): string {
  return [key.local_date, key.condition, key.risk_status].join(separator);
}

function agreementKey(key: AgreementCountKey): string {
  return [key.local_date, key.condition, key.rule_status, key.doctor_status, key.agreed].join(
    separator,
  );
}

/** The changes a transaction makes to the kept counts, summed per key. */
export class KeptCountChanges {
  readonly population = new Map<string, PopulationCountsTable>();
  readonly agreement = new Map<string, AgreementCountsTable>();

  /** Adds to the key's day and to its all-time row. */
  addPopulation(key: PopulationCountKey, delta: number): void {
    this.addPopulationRow(key, delta);
    this.addPopulationRow({ ...key, local_date: allTime }, delta);
  }

  /** Adds to the key's day and to its all-time row. */
  addAgreement(key: AgreementCountKey, delta: number): void {
    this.addAgreementRow(key, delta);
    this.addAgreementRow({ ...key, local_date: allTime }, delta);
  }

  private addPopulationRow(key: PopulationCountKey, delta: number): void {
    const id = populationKey(key);
    const row = this.population.get(id);
    if (row === undefined) this.population.set(id, { ...key, n: delta });
    else row.n += delta;
  }

  private addAgreementRow(key: AgreementCountKey, delta: number): void {
    const id = agreementKey(key);
    const row = this.agreement.get(id);
    if (row === undefined) this.agreement.set(id, { ...key, n: delta });
    else row.n += delta;
  }

  /** Adds (sign 1) or takes away (-1) everything an assessment counts for. */
  add(contributions: Contributions, sign: 1 | -1): void {
    for (const key of contributions.population) this.addPopulation(key, sign);
    for (const key of contributions.agreement) this.addAgreement(key, sign);
  }
}

/** The rows that change, in the one order every transaction locks them in. */
function sortedChanges<T extends { n: number }>(changes: Map<string, T>): T[] {
  return [...changes.entries()]
    .filter(([, row]) => row.n !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}

/** The agreement key of a review row: '' for no doctor status, agreed as 0 or 1. */
export function agreementCountKey(
  localDate: string | null,
  review: {
    condition: string;
    agreed: boolean | number;
    doctor_status: string | null;
  },
  ruleStatus: string,
): AgreementCountKey {
  return {
    local_date: localDate ?? '',
    condition: review.condition,
    rule_status: ruleStatus,
    doctor_status: review.doctor_status ?? '',
    agreed: review.agreed === true || review.agreed === 1 ? 1 : 0,
  };
}

/** Six columns a row at most: 1,000 rows stay well inside SQLite's 32,766 parameters. */
const rowsPerStatement = 1_000;

export const keptCountsRepository = {
  /**
   * Applies a transaction's changes as its last write to them: one statement per table, the keys
   * sorted, population before agreement (see above).
   */
  async apply(db: Executor, changes: KeptCountChanges): Promise<void> {
    // In key order, a statement at most `rowsPerStatement` rows: a seed's batch touches thousands
    // of keys, more than SQLite takes parameters in one statement.
    const population = sortedChanges(changes.population);
    for (let start = 0; start < population.length; start += rowsPerStatement) {
      await db
        .insertInto('population_counts')
        .values(population.slice(start, start + rowsPerStatement))
        .onConflict((conflict) =>
          conflict
            .columns(['local_date', 'condition', 'risk_status'])
            .doUpdateSet({ n: sql`population_counts.n + excluded.n` }),
        )
        .execute();
    }
    const agreement = sortedChanges(changes.agreement);
    for (let start = 0; start < agreement.length; start += rowsPerStatement) {
      await db
        .insertInto('agreement_counts')
        .values(agreement.slice(start, start + rowsPerStatement))
        .onConflict((conflict) =>
          conflict
            .columns(['local_date', 'condition', 'rule_status', 'doctor_status', 'agreed'])
            .doUpdateSet({ n: sql`agreement_counts.n + excluded.n` }),
        )
        .execute();
    }
  },

  /** Live assessments per condition and risk status, created within the local dates given. */
  populationCounts(
    db: Executor,
    range: LocalDateRange,
  ): Promise<{ condition: string; risk_status: string; n: number | string }[]> {
    return db
      .selectFrom('population_counts')
      .where((eb) => dateCondition(eb, range))
      .select((eb) => ['condition', 'risk_status', eb.fn.sum<number | string>('n').as('n')])
      .groupBy(['condition', 'risk_status'])
      .execute();
  },

  /** Decided rows of finalized reviews of live assessments created within the local dates. */
  agreementCounts(db: Executor, range: LocalDateRange): Promise<AgreementCountSum[]> {
    return db
      .selectFrom('agreement_counts')
      .where((eb) => dateCondition(eb, range))
      .select((eb) => [
        'condition',
        'rule_status',
        'doctor_status',
        'agreed',
        eb.fn.sum<number | string>('n').as('n'),
      ])
      .groupBy(['condition', 'rule_status', 'doctor_status', 'agreed'])
      .execute();
  },

  /**
   * What an assessment counts for while live, as stored now: its results, and the decided rows of
   * its review once finalized. Read it after locking the assessment's row.
   */
  async contributions(db: Executor, assessmentId: string): Promise<Contributions> {
    const results = await db
      .selectFrom('results')
      .innerJoin('assessments', 'assessments.id', 'results.assessment_id')
      .select(['assessments.created_local_date', 'results.condition', 'results.risk_status'])
      .where('results.assessment_id', '=', assessmentId)
      .execute();
    const reviews = await db
      .selectFrom('doctor_reviews')
      .select(['condition', 'agreed', 'doctor_status'])
      .where('assessment_id', '=', assessmentId)
      .where('locked', '=', true)
      .where('decided', '=', true)
      .execute();
    const statusOf = new Map(results.map((row) => [row.condition, row.risk_status]));
    const localDate = results[0]?.created_local_date ?? null;
    return {
      population: results.map((row) => ({
        local_date: row.created_local_date ?? '',
        condition: row.condition,
        risk_status: row.risk_status,
      })),
      agreement: reviews.flatMap((review) => {
        const ruleStatus = statusOf.get(review.condition);
        return ruleStatus === undefined ? [] : [agreementCountKey(localDate, review, ruleStatus)];
      }),
    };
  },
};
