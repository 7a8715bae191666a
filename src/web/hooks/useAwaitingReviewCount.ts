import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { awaitingReview } from '../api/worklists.ts';

/**
 * How many assessments await review, read again on every change of view (a finalized review
 * leaves the list); undefined until known, or when `enabled` is false.
 */
export function useAwaitingReviewCount(enabled: boolean): number | undefined {
  const { pathname } = useLocation();
  const [count, setCount] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    awaitingReview({ limit: 1, signal: controller.signal }).then(
      (list) => setCount(list.total),
      () => undefined, // The badge stays as it was; the page itself reports failures.
    );
    return () => controller.abort();
  }, [enabled, pathname]);
  return enabled ? count : undefined;
}
