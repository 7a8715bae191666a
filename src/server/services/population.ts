import type { z } from 'zod';
import { CONDITIONS, RISK_STATUSES, type Condition, type RiskStatus } from '../../engine/index.ts';
import type {
  Population,
  populationQuerySchema,
  StatusCounts,
} from '../../shared/api/population.ts';
import type { Scope } from '../auth/scope.ts';
import type { AppContext } from '../context.ts';
import {
  filteredAssessments,
  isUnfiltered,
  type AssessmentFilter,
} from '../db/repositories/assessments.ts';
import type { DatabaseEngine } from '../db/database.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { keptCountsRepository } from '../db/repositories/kept-counts.ts';
import { historyFilter } from './assessments.ts';

type PopulationQuery = z.output<typeof populationQuerySchema>;

interface CountRow {
  condition: string;
  risk_status: string;
  n: number | string | bigint;
}

/**
 * The results rows of the matching assessments within the scope, counted by condition and status.
 * The matches are an `in` subquery rather than a join: SQLite then walks the matching assessments
 * and seeks their results, instead of visiting every results row and looking its assessment up.
 */
function filteredCounts(
  db: Executor,
  engine: DatabaseEngine,
  filter: AssessmentFilter,
  scope: Scope,
): Promise<CountRow[]> {
  return db
    .selectFrom('results')
    .where(
      'results.assessment_id',
      'in',
      filteredAssessments(db, engine, scope, filter).select('assessments.id'),
    )
    .select((eb) => ['results.condition', 'results.risk_status', eb.fn.countAll<number>().as('n')])
    .groupBy(['results.condition', 'results.risk_status'])
    .execute();
}

function isRiskStatus(status: string): status is RiskStatus {
  return (RISK_STATUSES as readonly string[]).includes(status);
}

function zeroCounts(): StatusCounts {
  return Object.fromEntries(RISK_STATUSES.map((status) => [status, 0])) as StatusCounts;
}

/**
 * For the live assessments within the scope that match the history's search and dates: how many
 * have each risk status, per condition, over every match rather than the loaded page.
 */
export async function populationCounts(
  context: AppContext,
  scope: Scope,
  query: PopulationQuery,
): Promise<Population> {
  const { db, engine } = context.database;
  const filter = historyFilter(query, context.config.timeZone);
  // Whole days only (or none): the counts the database keeps, summed over the days. A search
  // narrows by what those counts do not record, so it counts the matching assessments.
  const rows = isUnfiltered({ ...filter, fromIso: undefined, toIso: undefined })
    ? await keptCountsRepository.populationCounts(db, { from: query.from, to: query.to }, scope)
    : await filteredCounts(db, engine, filter, scope);

  const counts = new Map<Condition, StatusCounts>(
    CONDITIONS.map((condition) => [condition, zeroCounts()]),
  );
  for (const row of rows) {
    const forCondition = counts.get(row.condition as Condition);
    // Rows of a condition a later rule set might add are not part of this panel.
    if (forCondition !== undefined && isRiskStatus(row.risk_status)) {
      forCondition[row.risk_status] += Number(row.n);
    }
  }
  return {
    conditions: CONDITIONS.map((condition) => ({
      condition,
      counts: counts.get(condition) ?? zeroCounts(),
    })),
  };
}
