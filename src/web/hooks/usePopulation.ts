import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Population } from '../../shared/api/population.ts';
import { getPopulation, type HistoryFilter } from '../api/history.ts';
import { friendlyMessageFor } from '../components/errors/friendlyMessage.ts';
import { offlineTexts } from '../offline/texts.ts';
import { queryKeys } from './serverState.ts';

export interface PopulationLoad {
  /** The latest counts; kept on screen while the next filter's counts load. */
  population: Population | null;
  loading: boolean;
  failure: string | null;
}

/**
 * The population panel's counts for the history's filter, through TanStack Query: the cache,
 * the retry and the pause while offline come from it; a change elsewhere invalidates it.
 */
export function usePopulation(filter: HistoryFilter): PopulationLoad {
  const { q, from, to, unit } = filter;
  const query = useQuery({
    queryKey: queryKeys.population({ q, from, to, unit }),
    queryFn: ({ signal }) => getPopulation({ q, from, to, unit }, signal),
    placeholderData: keepPreviousData,
  });
  const paused = query.fetchStatus === 'paused';
  return {
    population: query.data ?? null,
    loading: query.isFetching,
    failure:
      query.error !== null
        ? friendlyMessageFor(query.error)
        : paused && query.data === undefined
          ? offlineTexts.needsConnection
          : null,
  };
}
