import { assessmentListSchema, type AssessmentList } from '../../shared/api/assessment-list.ts';
import { populationSchema, type Population } from '../../shared/api/population.ts';
import { apiRequest, ifMatch } from './client.ts';

/**
 * What narrows the history: the search words, whole days (YYYY-MM-DD) and an organisation unit
 * (with those below it, within the user's scope), unset when empty.
 */
export interface HistoryFilter {
  q?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  unit?: string | undefined;
}

/** One page of the history (20 rows), after `cursor` when loading more. */
export function listAssessments(
  filter: HistoryFilter,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<AssessmentList> {
  return apiRequest('/api/assessments', {
    query: { q: filter.q, from: filter.from, to: filter.to, unit: filter.unit, limit: 20, cursor },
    schema: assessmentListSchema,
    signal,
  });
}

/** Risk statuses per condition over every assessment the filter matches. */
export function getPopulation(filter: HistoryFilter, signal?: AbortSignal): Promise<Population> {
  return apiRequest('/api/assessments/population', {
    query: { q: filter.q, from: filter.from, to: filter.to, unit: filter.unit },
    schema: populationSchema,
    signal,
  });
}

/** Deletes the assessment as the user saw it (`version`); refused (412) if it changed since. */
export function deleteAssessment(id: string, version: number): Promise<void> {
  return apiRequest(`/api/assessments/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    headers: ifMatch(version),
  });
}
