import type { z } from 'zod';
import { CONDITIONS, RISK_STATUSES, type Condition } from '../../engine/index.ts';
import type {
  Population,
  populationQuerySchema,
  StatusCounts,
} from '../../shared/api/population.ts';
import type { AppContext } from '../context.ts';
import { filteredAssessments, type AssessmentFilter } from '../db/repositories/assessments.ts';
import { endOfDayExclusive, startOfDay } from '../time.ts';
import { parseHistorySearch } from './history-search.ts';

type PopulationQuery = z.output<typeof populationQuerySchema>;

/** The history's filter: its search words and whole clinic days, as listAssessments reads them. */
function historyFilter(query: PopulationQuery, timeZone: string): AssessmentFilter {
  return {
    ...parseHistorySearch(query.q),
    fromIso: query.from === undefined ? undefined : startOfDay(query.from, timeZone).toISOString(),
    toIso: query.to === undefined ? undefined : endOfDayExclusive(query.to, timeZone).toISOString(),
  };
}

function zeroCounts(): StatusCounts {
  return Object.fromEntries(RISK_STATUSES.map((status) => [status, 0])) as StatusCounts;
}

/**
 * For the live assessments that match the history's search and dates: how many have each risk
 * status, per condition. One grouped query over the results rows, so the panel costs the same
 * whatever page of the history is loaded.
 */
export async function populationCounts(
  context: AppContext,
  query: PopulationQuery,
): Promise<Population> {
  const rows = await filteredAssessments(
    context.database.db,
    historyFilter(query, context.config.timeZone),
  )
    .innerJoin('results', 'results.assessment_id', 'assessments.id')
    .select((eb) => ['results.condition', 'results.risk_status', eb.fn.countAll<number>().as('n')])
    .groupBy(['results.condition', 'results.risk_status'])
    .execute();

  const counts = new Map<Condition, StatusCounts>(
    CONDITIONS.map((condition) => [condition, zeroCounts()]),
  );
  for (const row of rows) {
    const forCondition = counts.get(row.condition as Condition);
    // Rows of a condition a later rule set might add are not part of this panel.
    if (forCondition !== undefined) forCondition[row.risk_status] = Number(row.n);
  }
  return {
    conditions: CONDITIONS.map((condition) => ({
      condition,
      counts: counts.get(condition) ?? zeroCounts(),
    })),
  };
}
