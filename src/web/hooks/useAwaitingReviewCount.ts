import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { awaitingReview } from '../api/worklists.ts';
import { queryKeys } from './serverState.ts';

/** How often the count is read again while the page stays open and in view. */
export const awaitingReviewRefreshMs = 60_000;

/**
 * How many assessments await review: read on every change of view (a finalized review leaves
 * the list), every minute while the window is in view (other nurses sign off meanwhile), when
 * the window comes back into view, and when a change here invalidates the worklists; undefined
 * until known, or when `enabled` is false. A failed read leaves the badge as it was.
 */
export function useAwaitingReviewCount(enabled: boolean): number | undefined {
  const { pathname } = useLocation();
  const query = useQuery({
    queryKey: queryKeys.worklist('awaitingReview', 1),
    queryFn: ({ signal }) => awaitingReview({ limit: 1, signal }),
    enabled,
    refetchInterval: awaitingReviewRefreshMs,
    refetchOnWindowFocus: 'always',
  });
  const { refetch } = query;
  const readAtPath = useRef(pathname);
  useEffect(() => {
    if (readAtPath.current === pathname) return;
    readAtPath.current = pathname;
    if (enabled) void refetch();
  }, [enabled, pathname, refetch]);
  return enabled ? query.data?.total : undefined;
}
