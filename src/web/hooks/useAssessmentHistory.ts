import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError } from '../api/client.ts';
import { deleteAssessment, listAssessments, type HistoryFilter } from '../api/history.ts';
import { errorMessage } from '../forms.ts';
import { historyState, listingFailureMessage } from './historyState.ts';
import { assessmentDeleted, assessmentListsChanged, queryKeys } from './serverState.ts';

/**
 * The assessment history for a filter, 20 rows a page, through TanStack Query: each filter's
 * pages are kept under their own key (the cursor is the pages' parameter), a network or server
 * failure is tried once more, and a request waits while the browser is offline.
 */
export function useAssessmentHistory(filter: HistoryFilter) {
  const { q, from, to, unit } = filter;
  const queryKey = queryKeys.history({ q, from, to, unit });
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => listAssessments({ q, from, to, unit }, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
  const queryClient = useQueryClient();
  const pausedMeta = queryClient.getQueryState(queryKey)?.fetchMeta;
  const paused =
    query.fetchStatus !== 'paused'
      ? null
      : pausedMeta?.fetchMore?.direction === 'forward'
        ? ('more' as const)
        : ('first' as const);

  // Dismissing hides the failure on show, until the next request fails (or, offline, until the
  // next wait for the network after an answer).
  const failureAt = paused !== null ? -(query.dataUpdatedAt + 1) : query.errorUpdatedAt;
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const { data, isFetching, isFetchingNextPage, error, isFetchNextPageError } = query;
  const state = useMemo(
    () =>
      historyState({
        pages: data?.pages,
        fetching: isFetching && !isFetchingNextPage,
        fetchingMore: isFetchingNextPage,
        paused,
        error:
          error === null
            ? null
            : { message: listingFailureMessage(errorMessage(error)), more: isFetchNextPageError },
        dismissed: dismissedAt === failureAt,
      }),
    [
      data,
      isFetching,
      isFetchingNextPage,
      paused,
      error,
      isFetchNextPageError,
      dismissedAt,
      failureAt,
    ],
  );

  const { hasNextPage, fetchNextPage, refetch } = query;
  const loadMore = useCallback(() => {
    if (!hasNextPage || isFetchingNextPage) return;
    void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const failedDuring = state.failure?.during;
  /** Repeats whichever request failed: the first page or the next one. */
  const retry = useCallback(() => {
    setDismissedAt(null);
    if (failedDuring === 'more') void fetchNextPage();
    else void refetch();
  }, [failedDuring, fetchNextPage, refetch]);

  const dismissError = useCallback(() => setDismissedAt(failureAt), [failureAt]);

  // A page of rows is a large render: deferred, typing in the search stays responsive.
  return { state: useDeferredValue(state), loadMore, retry, dismissError };
}

/**
 * Deletes an assessment as the user saw it (`version`). Done, it leaves the history at once; refused
 * because someone changed it since (412), nothing was deleted and the lists are read as they are.
 */
export function useDeleteAssessment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) => deleteAssessment(id, version),
    onSuccess: (_, { id }) => {
      void assessmentDeleted(queryClient, id);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 412) {
        void assessmentListsChanged(queryClient);
      }
    },
  });
}
