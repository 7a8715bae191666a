import type { HistoryFilter } from '../../api/history.ts';

/** The date range the user applied with 'Apply Filter'; empty text is no limit. */
export interface DateRange {
  from: string;
  to: string;
}

export const noDates: DateRange = { from: '', to: '' };

/** Why the range cannot be applied, or null. The inputs give YYYY-MM-DD, which sorts as text. */
export function dateRangeError({ from, to }: DateRange): string | null {
  if (from !== '' && to !== '' && from > to) return 'End Date must be on or after Start Date';
  return null;
}

/** The line listing the applied dates (spec section 2.4), or null when none is applied. */
export function activeFiltersText({ from, to }: DateRange): string | null {
  const parts = [
    ...(from === '' ? [] : [`Start Date ${from}`]),
    ...(to === '' ? [] : [`End Date ${to}`]),
  ];
  return parts.length === 0 ? null : `Active filters: ${parts.join(', ')}`;
}

/** What the server is asked for: the search as typed (trimmed) and the applied dates. */
export function historyFilter(search: string, dates: DateRange): HistoryFilter {
  const q = search.trim();
  return {
    q: q === '' ? undefined : q,
    from: dates.from === '' ? undefined : dates.from,
    to: dates.to === '' ? undefined : dates.to,
  };
}
