import type { AssessmentList, AssessmentSummary } from '../../shared/api/assessments.ts';
import { friendlyMessages } from '../../shared/texts.ts';

/**
 * The history's data as the query holds it. A new search keeps the rows on screen until its answer
 * replaces them, so typing does not make the list flash; answers are kept per search, so a late
 * one never shows under another search.
 */
export interface HistoryState {
  status: 'loading' | 'ready' | 'failed';
  items: AssessmentSummary[];
  /** Assessments matching the search and dates ('Found X ...'). */
  total: number;
  /** Live assessments in all ('... of Y assessments'). */
  overallTotal: number;
  nextCursor: string | null;
  loadingMore: boolean;
  /** The listing failure on show, and which request failed, so Try Again repeats that one. */
  failure: { message: string; during: 'first' | 'more' } | null;
}

/** What the state is read from: the infinite query's pages and fetch status. */
export interface HistoryQuery {
  pages: readonly AssessmentList[] | undefined;
  /** The first page (or every loaded page, when refreshed) is being read. */
  fetching: boolean;
  fetchingMore: boolean;
  /** Which request waits for the network to return before it can ask, if one does. */
  paused: 'first' | 'more' | null;
  /** The last request's failure, worded for the user, and whether it was the next page's. */
  error: { message: string; more: boolean } | null;
  /** The user dismissed the failure on show. */
  dismissed: boolean;
}

export function historyState(query: HistoryQuery): HistoryState {
  const pages = query.pages ?? [];
  const last = pages.at(-1);
  const failure: HistoryState['failure'] =
    query.paused !== null
      ? // Offline: the panel says so (in its offline words) in place of the list or the next rows.
        { message: listingFailureMessage(friendlyMessages.network), during: query.paused }
      : query.error !== null && !query.fetching && !query.fetchingMore
        ? { message: query.error.message, during: query.error.more ? 'more' : 'first' }
        : null;
  const firstFailed = failure?.during === 'first';
  return {
    status: firstFailed ? 'failed' : query.fetching ? 'loading' : 'ready',
    // A failed first page shows no rows: what is on screen may no longer be so.
    items: firstFailed ? [] : pages.flatMap((page) => page.items),
    total: firstFailed ? 0 : (last?.total ?? 0),
    overallTotal: firstFailed ? 0 : (last?.overallTotal ?? 0),
    nextCursor: firstFailed ? null : (last?.nextCursor ?? null),
    loadingMore: query.fetchingMore,
    failure: query.dismissed ? null : failure,
  };
}

/** Which of the spec's history states to show (section 4: loading, error, empty, filtered-empty, list). */
export type HistoryView = 'loading' | 'error' | 'empty' | 'filteredEmpty' | 'list' | 'nothing';

export function historyView(state: HistoryState): HistoryView {
  if (state.failure?.during === 'first') return 'error';
  // A dismissed listing failure leaves nothing to show until the next search.
  if (state.status === 'failed') return 'nothing';
  if (state.items.length > 0) return 'list';
  if (state.status === 'loading') return 'loading';
  if (state.overallTotal === 0) return 'empty';
  return state.total === 0 ? 'filteredEmpty' : 'list';
}

/** The spec's listing failure text (section 8). */
export function listingFailureMessage(message: string): string {
  return `Database error: ${message}`;
}
