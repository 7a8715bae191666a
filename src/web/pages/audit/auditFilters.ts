import { auditActions, type AuditAction } from '../../../shared/api/audit.ts';
import { calendarDateError, calendarDateSchema } from '../../../shared/api/calendar-date.ts';
import type { AuditFilters } from '../../api/audit.ts';

function isCalendarDate(value: string): boolean {
  return calendarDateSchema.safeParse(value).success;
}

function isAuditAction(value: string): value is AuditAction {
  return (auditActions as readonly string[]).includes(value);
}

/**
 * The filters the address holds (so a filtered trail can be bookmarked and the back button
 * works); values the API would refuse are dropped.
 */
export function auditFiltersFromSearch(search: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  const user = search.get('user')?.trim();
  if (user) filters.user = user;
  const action = search.get('action');
  if (action !== null && isAuditAction(action)) filters.action = action;
  const from = search.get('from');
  if (from !== null && isCalendarDate(from)) filters.from = from;
  const to = search.get('to');
  if (to !== null && isCalendarDate(to)) filters.to = to;
  return filters;
}

/**
 * What the form says of each date the API would refuse, or null for each: a browser lets a user
 * type a year the server refuses (9999-12-31), which the filters would otherwise drop unseen.
 */
export function auditDateErrors(form: { from: string; to: string }): {
  from: string | null;
  to: string | null;
} {
  return {
    from: form.from === '' ? null : calendarDateError('From', form.from),
    to: form.to === '' ? null : calendarDateError('To', form.to),
  };
}

/** The form's values as filters; empty values mean no filter. */
export function auditFiltersFromForm(form: {
  user: string;
  action: string;
  from: string;
  to: string;
}): AuditFilters {
  return auditFiltersFromSearch(new URLSearchParams(form));
}

export function auditSearchFromFilters(filters: AuditFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const name of ['user', 'action', 'from', 'to'] as const) {
    const value = filters[name];
    if (value !== undefined) search.set(name, value);
  }
  return search;
}
