/**
 * The organisation units' tree as plain data (issue 36): pure functions over the list of units,
 * which the server uses to compute a user's scope and to refuse a parent that would make a cycle.
 */
export interface OrgUnitLink {
  id: string;
  parentId: string | null;
}

/** The ids of the units below each unit's id, one level down. */
function childrenOf(units: readonly OrgUnitLink[]): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const unit of units) {
    if (unit.parentId === null) continue;
    const siblings = children.get(unit.parentId);
    if (siblings === undefined) children.set(unit.parentId, [unit.id]);
    else siblings.push(unit.id);
  }
  return children;
}

/**
 * The scope of a set of units: every unit among `rootIds` that exists, and every unit below one
 * of them at any depth. A root id that names no unit adds nothing. Each unit is visited once, so
 * overlapping roots (a district and one of its facilities) and even a cycle cost nothing more.
 */
export function unitsWithin(units: readonly OrgUnitLink[], rootIds: Iterable<string>): Set<string> {
  const known = new Set(units.map((unit) => unit.id));
  const children = childrenOf(units);
  const within = new Set<string>();
  const waiting = [...rootIds].filter((id) => known.has(id));
  for (let id = waiting.pop(); id !== undefined; id = waiting.pop()) {
    if (within.has(id)) continue;
    within.add(id);
    for (const child of children.get(id) ?? []) waiting.push(child);
  }
  return within;
}

/**
 * Whether making `parentId` the parent of `unitId` would close a loop: the parent is the unit
 * itself or lies below it.
 */
export function wouldMakeCycle(
  units: readonly OrgUnitLink[],
  unitId: string,
  parentId: string | null,
): boolean {
  return parentId !== null && unitsWithin(units, [unitId]).has(parentId);
}

/**
 * The units in the tree's order: each top unit, then the units below it depth first, siblings by
 * `sortKey`; with each unit its depth (0 at the top). A unit whose parent is missing counts as a
 * top unit, so that nothing is lost.
 */
export function depthFirst<Unit extends OrgUnitLink>(
  units: readonly Unit[],
  sortKey: (unit: Unit) => string,
): { unit: Unit; depth: number }[] {
  const byKey = (a: Unit, b: Unit) => {
    const [x, y] = [sortKey(a), sortKey(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const known = new Set(units.map((unit) => unit.id));
  const children = new Map<string, Unit[]>();
  const tops: Unit[] = [];
  for (const unit of units) {
    if (unit.parentId === null || !known.has(unit.parentId)) tops.push(unit);
    else children.set(unit.parentId, [...(children.get(unit.parentId) ?? []), unit]);
  }
  const ordered: { unit: Unit; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (unit: Unit, depth: number) => {
    if (seen.has(unit.id)) return;
    seen.add(unit.id);
    ordered.push({ unit, depth });
    for (const child of (children.get(unit.id) ?? []).sort(byKey)) visit(child, depth + 1);
  };
  for (const top of tops.sort(byKey)) visit(top, 0);
  return ordered;
}
