import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { awaitingReview } from '../api/worklists.ts';

/** How often the count is read again while the page stays open and in view. */
export const awaitingReviewRefreshMs = 60_000;

/**
 * How many assessments await review: read on every change of view (a finalized review leaves
 * the list), every minute while the window is in view (other nurses sign off meanwhile), and when
 * the window comes back into view; undefined until known, or when `enabled` is false.
 */
export function useAwaitingReviewCount(enabled: boolean): number | undefined {
  const { pathname } = useLocation();
  const [count, setCount] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!enabled) return;
    let controller = new AbortController();
    const read = () => {
      controller.abort();
      controller = new AbortController();
      awaitingReview({ limit: 1, signal: controller.signal }).then(
        (list) => setCount(list.total),
        () => undefined, // The badge stays as it was; the page itself reports failures.
      );
    };
    const readWhenVisible = () => {
      if (document.visibilityState === 'visible') read();
    };
    read();
    const timer = window.setInterval(readWhenVisible, awaitingReviewRefreshMs);
    document.addEventListener('visibilitychange', readWhenVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', readWhenVisible);
      controller.abort();
    };
  }, [enabled, pathname]);
  return enabled ? count : undefined;
}
