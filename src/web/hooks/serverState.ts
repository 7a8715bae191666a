import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Assessment, AssessmentList } from '../../shared/api/assessments.ts';
import type { Review } from '../../shared/api/reviews.ts';
import type { HistoryFilter } from '../api/history.ts';
import type { AgreementDates } from '../api/reviews.ts';

/**
 * Every query key of the server state, each holding every parameter its request sends (the
 * history's cursor is its pages' parameter), so that no two requests share an answer. The first
 * element names the resource, so a change can refresh all of one resource at once.
 */
export const queryKeys = {
  history: (filter: HistoryFilter) =>
    ['history', { q: filter.q, from: filter.from, to: filter.to, unit: filter.unit }] as const,
  population: (filter: HistoryFilter) =>
    ['population', { q: filter.q, from: filter.from, to: filter.to, unit: filter.unit }] as const,
  agreement: (dates: AgreementDates) =>
    ['agreement', { from: dates.from, to: dates.to, unit: dates.unit }] as const,
  /** A unit's roll-up (the top of the user's scope when `unitId` is undefined) over its days. */
  orgUnitSummary: (unitId: string | undefined, dates: AgreementDates) =>
    ['orgUnitSummary', { unitId, from: dates.from, to: dates.to }] as const,
  assessment: (id: string) => ['assessment', id] as const,
  review: (assessmentId: string) => ['review', assessmentId] as const,
  /** A patient record with its live assessments. */
  patient: (id: string) => ['patient', id] as const,
  /** A worklist's pages (their cursor is the pages' parameter); `limit` left out is the server's. */
  worklist: (name: 'awaitingReview' | 'followUp', limit?: number) =>
    ['worklist', name, { limit }] as const,
  /** Every rule set version, the active one marked. */
  ruleSets: () => ['ruleSets'] as const,
  /** The tree of organisation units within the caller's scope. */
  orgUnits: () => ['orgUnits'] as const,
} as const;

type Resource =
  | 'history'
  | 'population'
  | 'agreement'
  | 'assessment'
  | 'review'
  | 'worklist'
  | 'patient'
  | 'orgUnitSummary';

function refresh(client: QueryClient, resources: readonly Resource[]): Promise<void> {
  return Promise.all(
    resources.map((resource) => client.invalidateQueries({ queryKey: [resource] })),
  ).then(() => undefined);
}

/** Lists that count or show assessments, which a save, sign-off or upload changes. */
const assessmentLists = ['history', 'population', 'worklist', 'patient', 'orgUnitSummary'] as const;

/** An update or sign-off answered with the stored assessment: it is the cached one from now on. */
export function assessmentStored(client: QueryClient, assessment: Assessment): Promise<void> {
  client.setQueryData(queryKeys.assessment(assessment.id), assessment);
  return refresh(client, assessmentLists);
}

/**
 * Assessments changed in ways this tab did not see (saves made offline reached the server, or a
 * refused delete found the row changed): every list is read as it is now.
 */
export function assessmentListsChanged(client: QueryClient): Promise<void> {
  return refresh(client, assessmentLists);
}

/** A saved review (not locked) changes only the review: the agreement counts locked ones. */
export function reviewSaved(client: QueryClient, assessmentId: string, review: Review): void {
  client.setQueryData(queryKeys.review(assessmentId), review);
}

/**
 * A locked review joins the Doctor Agreement, leaves Awaiting Review and changes how the
 * assessment, its history row and its patient record's table read.
 */
export function reviewLocked(
  client: QueryClient,
  assessmentId: string,
  review: Review,
): Promise<void> {
  client.setQueryData(queryKeys.review(assessmentId), review);
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.assessment(assessmentId) }),
    refresh(client, ['agreement', 'worklist', 'history', 'patient', 'orgUnitSummary']),
  ]).then(() => undefined);
}

/** Another version was made active: what names the active one reads it again. */
export function ruleSetActivated(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: queryKeys.ruleSets() });
}

/** The history's pages without one assessment, counted out of both totals. */
export function withoutAssessment(
  data: InfiniteData<AssessmentList, string | undefined>,
  id: string,
): InfiniteData<AssessmentList, string | undefined> {
  if (!data.pages.some((page) => page.items.some((item) => item.id === id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.filter((item) => item.id !== id),
      total: Math.max(0, page.total - 1),
      overallTotal: Math.max(0, page.overallTotal - 1),
    })),
  };
}

/**
 * A deleted assessment leaves every cached history page at once (the lists keep their place, as
 * they did), its own queries go, and the counts and worklists that held it are read again.
 */
export function assessmentDeleted(client: QueryClient, id: string): Promise<void> {
  client.setQueriesData<InfiniteData<AssessmentList, string | undefined>>(
    { queryKey: ['history'] },
    (data) => (data === undefined ? data : withoutAssessment(data, id)),
  );
  client.removeQueries({ queryKey: queryKeys.assessment(id) });
  client.removeQueries({ queryKey: queryKeys.review(id) });
  return refresh(client, ['population', 'agreement', 'worklist', 'patient', 'orgUnitSummary']);
}
