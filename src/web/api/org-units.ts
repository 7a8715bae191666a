import {
  orgUnitSummarySchema,
  orgUnitTreeSchema,
  type OrgUnitSummary,
  type OrgUnitTree,
} from '../../shared/api/org-units.ts';
import { apiRequest } from './client.ts';

/** One unit of the tree as the server lists it: after its parent, with its depth. */
export type OrgUnitInTree = OrgUnitTree['items'][number];

/** The tree of organisation units within the caller's scope, each unit after its parent. */
export async function listOrgUnits(signal?: AbortSignal): Promise<OrgUnitInTree[]> {
  const { items } = await apiRequest('/api/org-units', { schema: orgUnitTreeSchema, signal });
  return items;
}

/**
 * A unit's roll-up over whole days (YYYY-MM-DD, either end open); without a unit, the roll-up at
 * the top of the user's scope.
 */
export function getOrgUnitSummary(
  unitId: string | undefined,
  dates: { from?: string | undefined; to?: string | undefined },
  signal?: AbortSignal,
): Promise<OrgUnitSummary> {
  const path =
    unitId === undefined
      ? '/api/org-units/summary'
      : `/api/org-units/${encodeURIComponent(unitId)}/summary`;
  return apiRequest(path, {
    query: { from: dates.from, to: dates.to },
    schema: orgUnitSummarySchema,
    signal,
  });
}
