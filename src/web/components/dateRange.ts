import { calendarDateError } from '../../shared/api/calendar-date.ts';

/** The date range the user applied with 'Apply Filter'; empty text is no limit. */
export interface DateRange {
  from: string;
  to: string;
}

export const noDates: DateRange = { from: '', to: '' };

/**
 * Why the range cannot be applied, or null. The inputs give YYYY-MM-DD, which sorts as text; a
 * browser lets a user type a year the server refuses (9999-12-31), so each date is checked too.
 */
export function dateRangeError({ from, to }: DateRange): string | null {
  const fromError = from === '' ? null : calendarDateError('Start Date', from);
  if (fromError !== null) return fromError;
  const toError = to === '' ? null : calendarDateError('End Date', to);
  if (toError !== null) return toError;
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
