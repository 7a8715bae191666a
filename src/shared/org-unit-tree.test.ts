import { describe, expect, it } from 'vitest';
import { depthFirst, unitsWithin, wouldMakeCycle, type OrgUnitLink } from './org-unit-tree.ts';

// country > two regions > districts > facilities
const tree: OrgUnitLink[] = [
  { id: 'country', parentId: null },
  { id: 'north', parentId: 'country' },
  { id: 'south', parentId: 'country' },
  { id: 'north-d1', parentId: 'north' },
  { id: 'north-d2', parentId: 'north' },
  { id: 'f1', parentId: 'north-d1' },
  { id: 'f2', parentId: 'north-d1' },
  { id: 'f3', parentId: 'north-d2' },
  { id: 'south-d1', parentId: 'south' },
  { id: 'f4', parentId: 'south-d1' },
  { id: 'other-top', parentId: null },
];

const sorted = (ids: Set<string>) => [...ids].sort();

describe('unitsWithin', () => {
  it('is a unit and everything below it at any depth', () => {
    expect(sorted(unitsWithin(tree, ['north']))).toEqual(
      ['f1', 'f2', 'f3', 'north', 'north-d1', 'north-d2'].sort(),
    );
    expect(sorted(unitsWithin(tree, ['f1']))).toEqual(['f1']);
  });

  it('is the whole tree under the top, and not a second top', () => {
    const all = unitsWithin(tree, ['country']);
    expect(all.size).toBe(tree.length - 1);
    expect(all.has('other-top')).toBe(false);
  });

  it('joins several roots, overlapping or not, once each', () => {
    expect(sorted(unitsWithin(tree, ['north-d1', 'f1', 'south-d1']))).toEqual(
      ['f1', 'f2', 'f4', 'north-d1', 'south-d1'].sort(),
    );
  });

  it('is empty for no roots and ignores ids of no unit', () => {
    expect(unitsWithin(tree, []).size).toBe(0);
    expect(sorted(unitsWithin(tree, ['gone', 'f3']))).toEqual(['f3']);
  });

  it('ends on a cycle in the data', () => {
    const looped: OrgUnitLink[] = [
      { id: 'a', parentId: 'b' },
      { id: 'b', parentId: 'a' },
    ];
    expect(sorted(unitsWithin(looped, ['a']))).toEqual(['a', 'b']);
  });
});

describe('wouldMakeCycle', () => {
  it('refuses the unit itself or a unit below it as its parent', () => {
    expect(wouldMakeCycle(tree, 'north', 'north')).toBe(true);
    expect(wouldMakeCycle(tree, 'north', 'f1')).toBe(true);
    expect(wouldMakeCycle(tree, 'country', 'f4')).toBe(true);
  });

  it('allows a sibling, another branch, the top or none', () => {
    expect(wouldMakeCycle(tree, 'north-d1', 'south')).toBe(false);
    expect(wouldMakeCycle(tree, 'f1', 'north-d2')).toBe(false);
    expect(wouldMakeCycle(tree, 'south', 'other-top')).toBe(false);
    expect(wouldMakeCycle(tree, 'south', null)).toBe(false);
  });
});

describe('depthFirst', () => {
  it('lists each unit after its parent, siblings by key, with its depth', () => {
    const ordered = depthFirst(tree, (unit) => unit.id).map(
      ({ unit, depth }) => `${'-'.repeat(depth)}${unit.id}`,
    );
    expect(ordered).toEqual([
      'country',
      '-north',
      '--north-d1',
      '---f1',
      '---f2',
      '--north-d2',
      '---f3',
      '-south',
      '--south-d1',
      '---f4',
      'other-top',
    ]);
  });

  it('keeps a unit whose parent is missing, at the top', () => {
    expect(
      depthFirst([{ id: 'orphan', parentId: 'gone' }], (unit) => unit.id).map((entry) => entry),
    ).toEqual([{ unit: { id: 'orphan', parentId: 'gone' }, depth: 0 }]);
  });
});
