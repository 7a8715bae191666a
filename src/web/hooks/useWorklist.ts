import { useCallback, useEffect, useState } from 'react';
import type { WorklistPageOptions } from '../api/worklists.ts';
import { errorMessage } from '../forms.ts';

interface Page<T> {
  items: T[];
  total: number;
  nextCursor: string | null;
}

export type WorklistState<T> =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; items: T[]; total: number; nextCursor: string | null; more: boolean };

/** A worklist read page by page: the first page on mount, the next on `loadMore`. */
export function useWorklist<T>(read: (options: WorklistPageOptions) => Promise<Page<T>>): {
  state: WorklistState<T>;
  loadMore: () => void;
  retry: () => void;
} {
  const [state, setState] = useState<WorklistState<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    read({ signal: controller.signal }).then(
      (page) => setState({ status: 'loaded', ...page, more: false }),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [read, attempt]);

  const loadMore = useCallback(() => {
    if (state.status !== 'loaded' || state.nextCursor === null || state.more) return;
    const shown = state;
    setState({ ...shown, more: true });
    read({ cursor: shown.nextCursor ?? undefined }).then(
      (page) =>
        setState({
          status: 'loaded',
          items: [...shown.items, ...page.items],
          total: page.total,
          nextCursor: page.nextCursor,
          more: false,
        }),
      (error: unknown) => setState({ status: 'failed', message: errorMessage(error) }),
    );
  }, [read, state]);

  return { state, loadMore, retry: () => setAttempt((n) => n + 1) };
}
