import { startTransition, useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { listAssessments, type HistoryFilter } from '../api/history.ts';
import { errorMessage } from '../forms.ts';
import {
  historyReducer,
  initialHistoryState,
  listingFailureMessage,
} from '../pages/dashboard/historyState.ts';

/**
 * The assessment history for a filter, 20 rows a page. A new filter aborts every request made for
 * the previous one, so answers never arrive out of order.
 */
export function useAssessmentHistory(filter: HistoryFilter) {
  const [state, dispatch] = useReducer(historyReducer, initialHistoryState);
  const [attempt, setAttempt] = useState(0);
  const moreRequest = useRef<AbortController | null>(null);
  const { q, from, to } = filter;

  useEffect(() => {
    const controller = new AbortController();
    moreRequest.current?.abort();
    dispatch({ type: 'requested' });
    listAssessments({ q, from, to }, undefined, controller.signal).then(
      (page) => {
        // A page of rows is a large render: in slices, typing in the search stays responsive.
        if (!controller.signal.aborted) startTransition(() => dispatch({ type: 'loaded', page }));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        dispatch({ type: 'failed', message: listingFailureMessage(errorMessage(error)) });
      },
    );
    return () => controller.abort();
  }, [q, from, to, attempt]);

  useEffect(() => () => moreRequest.current?.abort(), []);

  const { nextCursor, loadingMore } = state;
  const loadMore = useCallback(() => {
    if (nextCursor === null || loadingMore) return;
    const controller = new AbortController();
    moreRequest.current = controller;
    dispatch({ type: 'moreRequested' });
    listAssessments({ q, from, to }, nextCursor, controller.signal).then(
      (page) => {
        if (!controller.signal.aborted) dispatch({ type: 'moreLoaded', page });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        dispatch({ type: 'moreFailed', message: listingFailureMessage(errorMessage(error)) });
      },
    );
  }, [q, from, to, nextCursor, loadingMore]);

  const failedDuring = state.failure?.during;
  /** Repeats whichever request failed: the first page or the next one. */
  const retry = useCallback(() => {
    if (failedDuring === 'more') loadMore();
    else setAttempt((n) => n + 1);
  }, [failedDuring, loadMore]);

  const dismissError = useCallback(() => dispatch({ type: 'dismissed' }), []);
  const removeRow = useCallback((id: string) => dispatch({ type: 'removed', id }), []);
  /** Asks for the first page again, as it is now; the rows stay on screen until it arrives. */
  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  return { state, loadMore, retry, dismissError, removeRow, reload };
}
