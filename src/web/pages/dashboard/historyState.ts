import type { AssessmentList, AssessmentSummary } from '../../../shared/api/assessments.ts';

/**
 * The history's data as pages arrive. A new search keeps the rows on screen until its answer
 * replaces them, so typing does not make the list flash. Stale answers never reach the reducer:
 * the hook aborts the request they belong to.
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

export type HistoryEvent =
  | { type: 'requested' }
  | { type: 'loaded'; page: AssessmentList }
  | { type: 'failed'; message: string }
  | { type: 'moreRequested' }
  | { type: 'moreLoaded'; page: AssessmentList }
  | { type: 'moreFailed'; message: string }
  | { type: 'dismissed' }
  | { type: 'removed'; id: string };

export const initialHistoryState: HistoryState = {
  status: 'loading',
  items: [],
  total: 0,
  overallTotal: 0,
  nextCursor: null,
  loadingMore: false,
  failure: null,
};

export function historyReducer(state: HistoryState, event: HistoryEvent): HistoryState {
  switch (event.type) {
    case 'requested':
      return { ...state, status: 'loading', loadingMore: false, failure: null };
    case 'loaded':
      return {
        status: 'ready',
        items: event.page.items,
        total: event.page.total,
        overallTotal: event.page.overallTotal,
        nextCursor: event.page.nextCursor,
        loadingMore: false,
        failure: null,
      };
    case 'failed':
      return {
        ...initialHistoryState,
        status: 'failed',
        failure: { message: event.message, during: 'first' },
      };
    case 'moreRequested':
      return { ...state, loadingMore: true, failure: null };
    case 'moreLoaded':
      return {
        ...state,
        items: [...state.items, ...event.page.items],
        total: event.page.total,
        overallTotal: event.page.overallTotal,
        nextCursor: event.page.nextCursor,
        loadingMore: false,
      };
    case 'moreFailed':
      return { ...state, loadingMore: false, failure: { message: event.message, during: 'more' } };
    case 'dismissed':
      return { ...state, failure: null };
    case 'removed':
      if (!state.items.some((item) => item.id === event.id)) return state;
      return {
        ...state,
        items: state.items.filter((item) => item.id !== event.id),
        total: Math.max(0, state.total - 1),
        overallTotal: Math.max(0, state.overallTotal - 1),
      };
  }
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
