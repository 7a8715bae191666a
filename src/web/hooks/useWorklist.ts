import { useCallback, useMemo } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { WorklistPageOptions } from '../api/worklists.ts';
import { errorMessage } from '../forms.ts';
import { queryKeys } from './serverState.ts';

interface Page<T> {
  items: T[];
  total: number;
  nextCursor: string | null;
}

export type WorklistState<T> =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; items: T[]; total: number; nextCursor: string | null; more: boolean };

/** What the page shows of a worklist query: its pages joined, or why they could not be read. */
export function worklistState<T>(query: {
  pages: readonly Page<T>[] | undefined;
  error: unknown;
  fetching: boolean;
  fetchingMore: boolean;
}): WorklistState<T> {
  if (query.error !== null && !query.fetching) {
    return { status: 'failed', message: errorMessage(query.error) };
  }
  const last = query.pages?.at(-1);
  if (query.pages === undefined || last === undefined) return { status: 'loading' };
  return {
    status: 'loaded',
    items: query.pages.flatMap((page) => page.items),
    total: last.total,
    nextCursor: last.nextCursor,
    more: query.fetchingMore,
  };
}

/**
 * A worklist read page by page through TanStack Query: the first page on mount, the next on
 * `loadMore`; a sign-off, review lock or delete elsewhere invalidates it.
 */
export function useWorklist<T>(
  name: 'awaitingReview' | 'followUp',
  read: (options: WorklistPageOptions) => Promise<Page<T>>,
): { state: WorklistState<T>; loadMore: () => void; retry: () => void } {
  const query = useInfiniteQuery({
    queryKey: queryKeys.worklist(name),
    queryFn: ({ pageParam, signal }) => read({ cursor: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const { data, error, isFetching, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } =
    query;
  const state = useMemo(
    () =>
      worklistState({
        pages: data?.pages,
        error,
        fetching: isFetching,
        fetchingMore: isFetchingNextPage,
      }),
    [data, error, isFetching, isFetchingNextPage],
  );
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const retry = useCallback(() => void refetch(), [refetch]);
  return { state, loadMore, retry };
}
