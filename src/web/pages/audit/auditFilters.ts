import { auditActions, type AuditAction } from '../../../shared/api/audit.ts';
import type { AuditFilters } from '../../api/audit.ts';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

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
  if (from !== null && isoDate.test(from)) filters.from = from;
  const to = search.get('to');
  if (to !== null && isoDate.test(to)) filters.to = to;
  return filters;
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
