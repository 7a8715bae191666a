import { orgUnitTreeSchema, type OrgUnitTree } from '../../shared/api/org-units.ts';
import { apiRequest } from './client.ts';

/** One unit of the tree as the server lists it: after its parent, with its depth. */
export type OrgUnitInTree = OrgUnitTree['items'][number];

/** The tree of organisation units within the caller's scope, each unit after its parent. */
export async function listOrgUnits(signal?: AbortSignal): Promise<OrgUnitInTree[]> {
  const { items } = await apiRequest('/api/org-units', { schema: orgUnitTreeSchema, signal });
  return items;
}
