import type { HistoryFilter } from '../../api/history.ts';
import type { DateRange } from '../../components/dateRange.ts';

/**
 * What the server is asked for: the search as typed (trimmed), the applied dates and the unit the
 * dashboard shows, if one.
 */
export function historyFilter(search: string, dates: DateRange, unit?: string): HistoryFilter {
  const q = search.trim();
  return {
    q: q === '' ? undefined : q,
    from: dates.from === '' ? undefined : dates.from,
    to: dates.to === '' ? undefined : dates.to,
    unit,
  };
}
