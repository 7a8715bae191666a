import type { Insertable } from 'kysely';
import type { OrgUnitsTable } from '../db/schema.ts';

/**
 * The organisation units of a seed (`triage seed --units N`): a country, its regions, districts
 * of about 25 facilities, five districts to a region, and the N facilities, with codes and names
 * drawn from the generator it is given, so that a seed always gives the same tree.
 */

export const facilitiesPerDistrict = 25;
export const districtsPerRegion = 5;
/** The most facilities a seed makes: codes number them with four digits. */
export const maxSeededFacilities = 9999;

const syllables = [
  'ka',
  'lu',
  'mba',
  'se',
  'ngo',
  'wa',
  'ti',
  'ra',
  'mo',
  'ze',
  'bu',
  'la',
  'ndi',
  'ko',
  'si',
  'ma',
  'nya',
  'to',
  'pe',
  'ri',
  'go',
  'chi',
  've',
  'du',
] as const;

/** Kinds of facility, how often each is met, and how many patients each sees relative to a clinic. */
const facilityKinds = [
  { kind: 'Clinic', share: 0.55, size: 1 },
  { kind: 'Health Centre', share: 0.25, size: 2 },
  { kind: 'Health Post', share: 0.15, size: 0.5 },
  { kind: 'District Hospital', share: 0.05, size: 4 },
] as const;

function placeName(random: () => number): string {
  const length = 2 + Math.floor(random() * 2);
  const name = Array.from(
    { length },
    () => syllables[Math.floor(random() * syllables.length)] ?? '',
  ).join('');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function facilityKind(random: () => number): (typeof facilityKinds)[number] {
  let draw = random();
  for (const kind of facilityKinds) {
    if (draw < kind.share) return kind;
    draw -= kind.share;
  }
  return facilityKinds[0];
}

/** A unit of the seeded tree before it is stored: its parent named by index into the tree. */
export interface SeededUnit {
  code: string;
  name: string;
  level: 'country' | 'region' | 'district' | 'facility';
  /** The index of its parent in the tree; null for the country. */
  parent: number | null;
  /** For a facility, how many patients it sees relative to a clinic. */
  size: number;
}

/**
 * The tree for `facilities` facilities, parents before their children: one country, ceil(N / 25)
 * districts, ceil(districts / 5) regions, the facilities shared evenly among the districts and
 * the districts among the regions.
 */
export function seededUnitTree(random: () => number, facilities: number): SeededUnit[] {
  const districts = Math.ceil(facilities / facilitiesPerDistrict);
  const regions = Math.ceil(districts / districtsPerRegion);
  const countryName = placeName(random);
  const prefix = countryName.slice(0, 3).toUpperCase();
  const number = (n: number, width: number) => String(n + 1).padStart(width, '0');
  const tree: SeededUnit[] = [
    { code: prefix, name: countryName, level: 'country', parent: null, size: 0 },
  ];
  for (let r = 0; r < regions; r++) {
    tree.push({
      code: `${prefix}-R${number(r, 2)}`,
      name: `${placeName(random)} Region`,
      level: 'region',
      parent: 0,
      size: 0,
    });
  }
  const firstDistrict = tree.length;
  for (let d = 0; d < districts; d++) {
    tree.push({
      code: `${prefix}-D${number(d, 3)}`,
      name: `${placeName(random)} District`,
      level: 'district',
      parent: 1 + Math.floor((d * regions) / districts),
      size: 0,
    });
  }
  for (let f = 0; f < facilities; f++) {
    const { kind, size } = facilityKind(random);
    tree.push({
      code: `${prefix}-F${number(f, 4)}`,
      name: `${placeName(random)} ${kind}`,
      level: 'facility',
      parent: firstDistrict + Math.floor((f * districts) / facilities),
      size,
    });
  }
  return tree;
}

/**
 * The rows to insert for the tree under `topParentId`, and each unit's id: a unit whose code is
 * already taken (a second seed into the same tree) is the existing one, not inserted again.
 */
export function seededUnitRows(
  tree: readonly SeededUnit[],
  options: {
    topParentId: string;
    existingIds: ReadonlyMap<string, string>;
    newId: () => string;
    at: string;
  },
): { rows: Array<Insertable<OrgUnitsTable>>; ids: string[] } {
  const rows: Array<Insertable<OrgUnitsTable>> = [];
  const ids: string[] = [];
  for (const unit of tree) {
    const existing = options.existingIds.get(unit.code.toLowerCase());
    if (existing !== undefined) {
      ids.push(existing);
      continue;
    }
    const id = options.newId();
    ids.push(id);
    rows.push({
      id,
      code: unit.code,
      code_key: unit.code.toLowerCase(),
      name: unit.name,
      parent_id: unit.parent === null ? options.topParentId : (ids[unit.parent] ?? null),
      version: 1,
      closed_at: null,
      created_at: options.at,
      updated_at: options.at,
    });
  }
  return { rows, ids };
}

/** Draws a facility's index into `tree`, facilities weighted by how many patients they see. */
export function facilityChooser(tree: readonly SeededUnit[]): (random: () => number) => number {
  const indexes: number[] = [];
  const cumulative: number[] = [];
  let total = 0;
  tree.forEach((unit, index) => {
    if (unit.level !== 'facility') return;
    total += unit.size;
    indexes.push(index);
    cumulative.push(total);
  });
  return (random) => {
    const draw = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] ?? 0) > draw) high = middle;
      else low = middle + 1;
    }
    return indexes[low] ?? 0;
  };
}
