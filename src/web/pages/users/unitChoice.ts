import type { OrgUnitReference } from '../../../shared/api/org-units.ts';
import type { OrgUnitInTree } from '../../api/org-units.ts';

/** A unit as the units input offers it: its code and name, and how deep in the tree it sits. */
export interface UnitOption {
  value: string;
  label: string;
  depth: number;
  disabled: boolean;
}

export function unitLabel(unit: { code: string; name: string }): string {
  return `${unit.code} – ${unit.name}`;
}

/**
 * The units a user may be given, in the tree's order. A closed unit is offered only while the user
 * already works in it (so that it can be kept or taken away); a unit of the user's that the tree
 * does not list is kept at the end, so that saving does not drop it unseen.
 */
export function unitOptions(
  tree: readonly OrgUnitInTree[],
  current: readonly OrgUnitReference[] = [],
): UnitOption[] {
  const currentIds = new Set(current.map((unit) => unit.id));
  const listed = new Set(tree.map((unit) => unit.id));
  return [
    ...tree.map((unit) => ({
      value: unit.id,
      label: unit.closedAt === null ? unitLabel(unit) : `${unitLabel(unit)} (closed)`,
      depth: unit.depth,
      disabled: unit.closedAt !== null && !currentIds.has(unit.id),
    })),
    ...current
      .filter((unit) => !listed.has(unit.id))
      .map((unit) => ({ value: unit.id, label: unitLabel(unit), depth: 0, disabled: false })),
  ];
}

/** The unit a new user works in without a choice: the only one, while the tree has one. */
export function onlyUnit(tree: readonly OrgUnitInTree[]): OrgUnitInTree | undefined {
  return tree.length === 1 ? tree[0] : undefined;
}

/** Whether two lists name the same units, in whatever order. */
export function sameUnitIds(a: readonly string[], b: readonly string[]): boolean {
  const first = new Set(a);
  const second = new Set(b);
  return first.size === second.size && [...first].every((id) => second.has(id));
}
