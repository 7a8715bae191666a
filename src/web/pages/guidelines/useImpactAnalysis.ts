import { useCallback, useEffect, useRef, useState } from 'react';
import type { ImpactResult } from '../../../shared/rule-set-impact.ts';
import { runImpactAnalysis, type ImpactDates } from '../../api/rule-set-impact.ts';
import { errorMessage } from '../../forms.ts';

export type ImpactState =
  | { status: 'idle' }
  /** total is null until the server's first progress line. */
  | { status: 'running'; done: number; total: number | null }
  | { status: 'failed'; message: string }
  /** The last progress stays shown beside the result, the bar full. */
  | { status: 'done'; done: number; total: number | null; result: ImpactResult };

/**
 * One impact analysis of a version at a time: running again, choosing another version or leaving
 * the page stops the one under way.
 */
export function useImpactAnalysis(version: string): {
  state: ImpactState;
  run: (dates: ImpactDates) => void;
  cancel: () => void;
} {
  const [state, setState] = useState<ImpactState>({ status: 'idle' });
  const running = useRef<AbortController | null>(null);

  const cancel = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setState({ status: 'idle' });
  }, []);

  useEffect(() => cancel, [version, cancel]);

  const run = useCallback(
    (dates: ImpactDates) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      let last: { done: number; total: number | null } = { done: 0, total: null };
      setState({ status: 'running', ...last });
      runImpactAnalysis(
        version,
        dates,
        (progress) => {
          last = progress;
          if (!controller.signal.aborted) setState({ status: 'running', ...progress });
        },
        controller.signal,
      ).then(
        (result) => {
          if (!controller.signal.aborted) setState({ status: 'done', ...last, result });
        },
        (error: unknown) => {
          if (!controller.signal.aborted)
            setState({ status: 'failed', message: errorMessage(error) });
        },
      );
    },
    [version],
  );

  return { state, run, cancel };
}
