import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { scopeCondition, type Scope } from '../../auth/scope.ts';
import type { DatabaseHandle } from '../database.ts';
import { totalFoldStatements } from '../migrations/20261128T0600-kept-count-deltas.ts';
import { unitFoldStatements } from '../migrations/20261128T1600-unit-kept-counts.ts';
import type { AgreementCountsTable, PopulationCountsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

/*
 * The dashboard's kept counts (migration kept-counts): live assessments per local creation date,
 * unit, condition and risk status, and the decided rows of finalized reviews of live assessments
 * per local date, unit, condition, rules' status, doctor's status and agreement. The unit is the
 * assessment's (migration unit-kept-counts): a scope or a district's roll-up sums its units' rows,
 * and a read of every unit the all-units rows ('*'), which each change keeps beside its unit's.
 *
 * Kept by the services rather than by triggers. Each change collects what it moves into a
 * KeptCountChanges and inserts it as delta rows (migration kept-count-deltas), which no other
 * transaction waits for: the twelve rows of a day's counts were raised in place by every save
 * before, and every save of the day waited there for the one before it to commit. A count is its
 * row plus its deltas, added up as it is read; `compact`, run every second by the server
 * (services/kept-count-compaction.ts), folds the deltas into the rows. The contributions a change
 * takes away are read after its assessment row is locked, so a review lock and a delete of the
 * same assessment each see what the other committed. SQLite's group commit runs each change in a
 * savepoint of its own, which takes its deltas back with everything else if it fails.
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

/**
 * The rows of the units within the scope: of every unit, the all-units rows ('*'), which hold the
 * sum of every unit's, so that a read of everything reads as many rows as before units; of some
 * units, theirs.
 */
function unitCondition(scope: Scope): RawBuilder<SqlBool> {
  return scope.kind === 'everything'
    ? sql<SqlBool>`org_unit_id = ${allUnits}`
    : scopeCondition('org_unit_id', scope);
}

/** The rows of each of the units named (never the all-units rows, which no unit's id is). */
function unitsCondition(unitIds: readonly string[]): RawBuilder<SqlBool> {
  return unitIds.length === 0
    ? sql<SqlBool>`1 = 0`
    : sql<SqlBool>`org_unit_id in (${sql.join(unitIds)})`;
}

/** No dates: the all-time rows; otherwise the days of the range, never the all-time rows. */
function dateCondition(range: LocalDateRange): RawBuilder<SqlBool> {
  if (range.from === undefined && range.to === undefined) return sql`local_date = ${allTime}`;
  const from = sql<SqlBool>`local_date >= ${range.from ?? earliestDate}`;
  return range.to === undefined ? from : sql`${from} and local_date <= ${range.to}`;
}

export type PopulationCountKey = Omit<PopulationCountsTable, 'n'>;

export interface UnitPopulationCount {
  org_unit_id: string;
  condition: string;
  risk_status: string;
  n: number | string;
}

export interface UnitAgreementCount {
  org_unit_id: string;
  agreed: number;
  n: number | string;
}
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

/**
 * The org_unit_id of each key's all-units rows (migration unit-kept-counts): the sum over every
 * unit, which a read of every unit takes instead of each unit's rows. No unit has it as an id.
 */
export const allUnits = '*';

/** The first date a range can hold: above '*' and '' (assessments without a local date). */
const earliestDate = '0';

function populationKey(key: PopulationCountKey): string {
  return [key.local_date, key.org_unit_id, key.condition, key.risk_status].join(separator);
}

function agreementKey(key: AgreementCountKey): string {
  return [
    key.local_date,
    key.org_unit_id,
    key.condition,
    key.rule_status,
    key.doctor_status,
    key.agreed,
  ].join(separator);
}

/** The changes a transaction makes to the kept counts, summed per key. */
export class KeptCountChanges {
  readonly population = new Map<string, PopulationCountsTable>();
  readonly agreement = new Map<string, AgreementCountsTable>();

  /** Adds to the key's day and all-time rows, each of its unit and of all units. */
  addPopulation(key: PopulationCountKey, delta: number): void {
    for (const local_date of [key.local_date, allTime]) {
      for (const org_unit_id of [key.org_unit_id, allUnits]) {
        this.addPopulationRow({ ...key, local_date, org_unit_id }, delta);
      }
    }
  }

  /** Adds to the key's day and all-time rows, each of its unit and of all units. */
  addAgreement(key: AgreementCountKey, delta: number): void {
    for (const local_date of [key.local_date, allTime]) {
      for (const org_unit_id of [key.org_unit_id, allUnits]) {
        this.addAgreementRow({ ...key, local_date, org_unit_id }, delta);
      }
    }
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

/** The keys whose count changes. */
function changed<T extends { n: number }>(changes: Map<string, T>): T[] {
  return [...changes.values()].filter((row) => row.n !== 0);
}

/** The agreement key of a review row: '' for no doctor status, agreed as 0 or 1. */
export function agreementCountKey(
  localDate: string | null,
  orgUnitId: string,
  review: {
    condition: string;
    agreed: boolean | number;
    doctor_status: string | null;
  },
  ruleStatus: string,
): AgreementCountKey {
  return {
    local_date: localDate ?? '',
    org_unit_id: orgUnitId,
    condition: review.condition,
    rule_status: ruleStatus,
    doctor_status: review.doctor_status ?? '',
    agreed: review.agreed === true || review.agreed === 1 ? 1 : 0,
  };
}

/** Seven columns a row at most: 1,000 rows stay well inside SQLite's 32,766 parameters. */
const rowsPerStatement = 1_000;

export const keptCountsRepository = {
  /** Inserts a transaction's changes as deltas: nothing that another transaction waits for. */
  async apply(db: Executor, changes: KeptCountChanges): Promise<void> {
    // A statement at most `rowsPerStatement` rows: a seed's batch touches thousands of keys, more
    // than SQLite takes parameters in one statement.
    const population = changed(changes.population);
    for (let start = 0; start < population.length; start += rowsPerStatement) {
      await db
        .insertInto('population_count_deltas')
        .values(population.slice(start, start + rowsPerStatement))
        .execute();
    }
    const agreement = changed(changes.agreement);
    for (let start = 0; start < agreement.length; start += rowsPerStatement) {
      await db
        .insertInto('agreement_count_deltas')
        .values(agreement.slice(start, start + rowsPerStatement))
        .execute();
    }
  },

  /**
   * Folds the deltas of the kept counts, the live count and the worklists' lengths into their
   * rows, atomically; every count reads the same before and after. On PostgreSQL one instance
   * folds at a time (a transaction advisory lock per schema; the others skip their turn), and each
   * fold takes only the deltas committed when its statement began.
   */
  async compact(database: DatabaseHandle): Promise<void> {
    await database.transaction(async (trx) => {
      if (database.engine === 'postgres') {
        const { rows } = await sql<{ folding: boolean }>`select pg_try_advisory_xact_lock(
            hashtext(current_schema() || '.triage.kept_count_fold')) as folding`.execute(trx);
        if (rows[0]?.folding !== true) return;
      }
      for (const statement of [
        ...unitFoldStatements(database.engine),
        ...totalFoldStatements(database.engine),
      ]) {
        await sql.raw(statement).execute(trx);
      }
    });
  },

  /**
   * Live assessments of the units within the scope per condition and risk status, created within
   * the local dates given.
   */
  async populationCounts(
    db: Executor,
    range: LocalDateRange,
    scope: Scope,
  ): Promise<{ condition: string; risk_status: string; n: number | string }[]> {
    const { rows } = await sql<{ condition: string; risk_status: string; n: number | string }>`
      select condition, risk_status, sum(n) as n from (
        select condition, risk_status, n from population_counts
        where ${dateCondition(range)} and ${unitCondition(scope)}
        union all
        select condition, risk_status, n from population_count_deltas
        where ${dateCondition(range)} and ${unitCondition(scope)}
      ) kept
      group by condition, risk_status`.execute(db);
    return rows;
  },

  /**
   * The same per unit, for the units named: a roll-up adds each unit's figures to its branch of
   * the tree. Each unit's rows are one range of the key, so the units are read one seek each.
   */
  async populationCountsByUnit(
    db: Executor,
    range: LocalDateRange,
    unitIds: readonly string[],
  ): Promise<UnitPopulationCount[]> {
    const { rows } = await sql<UnitPopulationCount>`
      select org_unit_id, condition, risk_status, sum(n) as n from (
        select org_unit_id, condition, risk_status, n from population_counts
        where ${dateCondition(range)} and ${unitsCondition(unitIds)}
        union all
        select org_unit_id, condition, risk_status, n from population_count_deltas
        where ${dateCondition(range)} and ${unitsCondition(unitIds)}
      ) kept
      group by org_unit_id, condition, risk_status`.execute(db);
    return rows;
  },

  /**
   * Decided rows of finalized reviews of live assessments of the units within the scope, created
   * within the local dates.
   */
  async agreementCounts(
    db: Executor,
    range: LocalDateRange,
    scope: Scope,
  ): Promise<AgreementCountSum[]> {
    const { rows } = await sql<AgreementCountSum>`
      select condition, rule_status, doctor_status, agreed, sum(n) as n from (
        select condition, rule_status, doctor_status, agreed, n from agreement_counts
        where ${dateCondition(range)} and ${unitCondition(scope)}
        union all
        select condition, rule_status, doctor_status, agreed, n from agreement_count_deltas
        where ${dateCondition(range)} and ${unitCondition(scope)}
      ) kept
      group by condition, rule_status, doctor_status, agreed`.execute(db);
    return rows;
  },

  /** Decided condition reviews per unit named, agreed or not, over every condition. */
  async agreementCountsByUnit(
    db: Executor,
    range: LocalDateRange,
    unitIds: readonly string[],
  ): Promise<UnitAgreementCount[]> {
    const { rows } = await sql<UnitAgreementCount>`
      select org_unit_id, agreed, sum(n) as n from (
        select org_unit_id, agreed, n from agreement_counts
        where ${dateCondition(range)} and ${unitsCondition(unitIds)}
        union all
        select org_unit_id, agreed, n from agreement_count_deltas
        where ${dateCondition(range)} and ${unitsCondition(unitIds)}
      ) kept
      group by org_unit_id, agreed`.execute(db);
    return rows;
  },

  /**
   * What an assessment counts for while live, as stored now: its results, and the decided rows of
   * its review once finalized. Read it after locking the assessment's row.
   */
  async contributions(db: Executor, assessmentId: string): Promise<Contributions> {
    const results = await db
      .selectFrom('results')
      .innerJoin('assessments', 'assessments.id', 'results.assessment_id')
      .select([
        'assessments.created_local_date',
        'assessments.org_unit_id',
        'results.condition',
        'results.risk_status',
      ])
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
    const unitId = results[0]?.org_unit_id ?? '';
    return {
      population: results.map((row) => ({
        local_date: row.created_local_date ?? '',
        org_unit_id: row.org_unit_id,
        condition: row.condition,
        risk_status: row.risk_status,
      })),
      agreement: reviews.flatMap((review) => {
        const ruleStatus = statusOf.get(review.condition);
        return ruleStatus === undefined
          ? []
          : [agreementCountKey(localDate, unitId, review, ruleStatus)];
      }),
    };
  },
};
