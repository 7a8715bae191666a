import type { z } from 'zod';
import { CONDITIONS, RISK_STATUSES, type Condition } from '../../engine/index.ts';
import type {
  Population,
  populationQuerySchema,
  StatusCounts,
} from '../../shared/api/population.ts';
import type { AppContext } from '../context.ts';
import {
  filteredAssessments,
  isUnfiltered,
  type AssessmentFilter,
} from '../db/repositories/assessments.ts';
import type { DatabaseEngine } from '../db/database.ts';
import type { Executor } from '../db/repositories/executor.ts';
import type { ResultsTable } from '../db/schema.ts';
import { historyFilter } from './assessments.ts';

type PopulationQuery = z.output<typeof populationQuerySchema>;

interface CountRow {
  condition: string;
  risk_status: ResultsTable['risk_status'];
  n: number | string | bigint;
}

/**
 * The results rows of the matching assessments, counted by condition and status. The matches are
 * an `in` subquery rather than a join: SQLite then walks the matching assessments and seeks
 * their results, instead of visiting every results row and looking its assessment up.
 */
function filteredCounts(
  db: Executor,
  engine: DatabaseEngine,
  filter: AssessmentFilter,
): Promise<CountRow[]> {
  return db
    .selectFrom('results')
    .where(
      'results.assessment_id',
      'in',
      filteredAssessments(db, engine, filter).select('assessments.id'),
    )
    .select((eb) => ['results.condition', 'results.risk_status', eb.fn.countAll<number>().as('n')])
    .groupBy(['results.condition', 'results.risk_status'])
    .execute();
}

/**
 * The dashboard's opening view counts every live assessment. Counting all results rows reads only
 * the (condition, status) index, and the few soft-deleted assessments are then counted out: at a
 * million assessments this is about a second on SQLite where the general query takes tens. One
 * statement, so both parts see the same moment.
 */
async function liveCounts(db: Executor): Promise<CountRow[]> {
  const everyResult = db
    .selectFrom('results')
    .select((eb) => ['results.condition', 'results.risk_status', eb.fn.countAll<number>().as('n')])
    .groupBy(['results.condition', 'results.risk_status']);
  const deletedResults = db
    .selectFrom('results')
    .where('results.assessment_id', 'in', (eb) =>
      eb.selectFrom('assessments').select('assessments.id').where('deleted_at', 'is not', null),
    )
    .select((eb) => [
      'results.condition',
      'results.risk_status',
      eb.neg(eb.fn.countAll<number>()).as('n'),
    ])
    .groupBy(['results.condition', 'results.risk_status']);
  return db
    .selectFrom(everyResult.unionAll(deletedResults).as('counts'))
    .select((eb) => [
      'counts.condition',
      'counts.risk_status',
      eb.fn.sum<number>('counts.n').as('n'),
    ])
    .groupBy(['counts.condition', 'counts.risk_status'])
    .execute();
}

function zeroCounts(): StatusCounts {
  return Object.fromEntries(RISK_STATUSES.map((status) => [status, 0])) as StatusCounts;
}

/**
 * For the live assessments that match the history's search and dates: how many have each risk
 * status, per condition, over every match rather than the loaded page.
 */
export async function populationCounts(
  context: AppContext,
  query: PopulationQuery,
): Promise<Population> {
  const { db, engine } = context.database;
  const filter = historyFilter(query, context.config.timeZone);
  const rows = isUnfiltered(filter)
    ? await liveCounts(db)
    : await filteredCounts(db, engine, filter);

  const counts = new Map<Condition, StatusCounts>(
    CONDITIONS.map((condition) => [condition, zeroCounts()]),
  );
  for (const row of rows) {
    const forCondition = counts.get(row.condition as Condition);
    // Rows of a condition a later rule set might add are not part of this panel.
    if (forCondition !== undefined) forCondition[row.risk_status] += Number(row.n);
  }
  return {
    conditions: CONDITIONS.map((condition) => ({
      condition,
      counts: counts.get(condition) ?? zeroCounts(),
    })),
  };
}
