import type { OrgUnit, OrgUnitTree } from '../../shared/api/org-units.ts';
import { depthFirst } from '../../shared/org-unit-tree.ts';
import type { OrgUnitRow } from '../db/repositories/org-units.ts';

export function presentOrgUnit(row: OrgUnitRow): OrgUnit {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    parentId: row.parent_id,
    version: row.version,
    closedAt: row.closed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The tree as a list, each unit after its parent, siblings by code. */
export function presentOrgUnitTree(rows: readonly OrgUnitRow[]): OrgUnitTree {
  const units = rows.map(presentOrgUnit);
  return {
    items: depthFirst(units, (unit) => unit.code.toLowerCase()).map(({ unit, depth }) => ({
      ...unit,
      depth,
    })),
  };
}
