import { useEffect, useState } from 'react';
import type { Population } from '../../shared/api/population.ts';
import { getPopulation, type HistoryFilter } from '../api/history.ts';
import { friendlyMessageFor } from '../components/errors/friendlyMessage.ts';

export interface PopulationLoad {
  /** The latest counts; kept on screen while the next filter's counts load. */
  population: Population | null;
  loading: boolean;
  failure: string | null;
}

/** The population panel's counts for the history's filter; `revision` reloads after a delete. */
export function usePopulation(filter: HistoryFilter, revision: number): PopulationLoad {
  const [load, setLoad] = useState<PopulationLoad>({
    population: null,
    loading: true,
    failure: null,
  });
  const { q, from, to } = filter;

  useEffect(() => {
    const controller = new AbortController();
    setLoad((current) => ({ ...current, loading: true, failure: null }));
    getPopulation({ q, from, to }, controller.signal).then(
      (population) => {
        if (!controller.signal.aborted) setLoad({ population, loading: false, failure: null });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({ population: null, loading: false, failure: friendlyMessageFor(error) });
      },
    );
    return () => controller.abort();
  }, [q, from, to, revision]);

  return load;
}
