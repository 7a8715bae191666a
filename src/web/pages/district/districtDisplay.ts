import type { OrgUnitSummaryRow } from '../../../shared/api/org-units.ts';

/** The District page's address for a unit (the top of the user's scope without one) and days. */
export function districtPath(
  unitId: string | undefined,
  dates: { from: string; to: string },
): string {
  const query = new URLSearchParams();
  if (dates.from !== '') query.set('from', dates.from);
  if (dates.to !== '') query.set('to', dates.to);
  const search = query.toString();
  const path = unitId === undefined ? '/district' : `/district/${encodeURIComponent(unitId)}`;
  return search === '' ? path : `${path}?${search}`;
}

/** The dashboard narrowed to a unit and those below it. */
export function unitDashboardPath(unitId: string): string {
  return `/?${new URLSearchParams({ unit: unitId }).toString()}`;
}

/** A share as a whole percentage ('83%'), or a dash when nothing was reviewed. */
export function agreementText(share: number | null): string {
  return share === null ? '—' : `${Math.round(share * 100)}%`;
}

/** What a row is called: the unit, or the unit's own records beside the units below it. */
export function rowLabel(row: OrgUnitSummaryRow): string {
  const name = `${row.unit.name} (${row.unit.code})`;
  return row.ownRecordsOnly ? `${name}, its own records` : name;
}
