import { describe, expect, it } from 'vitest';
import type { OrgUnitInTree } from '../../api/org-units.ts';
import { onlyUnit, sameUnitIds, unitLabel, unitOptions } from './unitChoice.ts';

function unit(
  id: string,
  code: string,
  depth: number,
  closedAt: string | null = null,
): OrgUnitInTree {
  return {
    id,
    code,
    name: `${code} clinic`,
    parentId: depth === 0 ? null : 'u-main',
    version: 1,
    closedAt,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    depth,
  };
}

const main = unit('u-main', 'MAIN', 0);
const north = unit('u-north', 'NORTH', 1);
const south = unit('u-south', 'SOUTH', 1, '2026-02-01T00:00:00.000Z');

describe('unitOptions', () => {
  it('offers every open unit in the tree order, with its code, name and depth', () => {
    expect(unitOptions([main, north])).toEqual([
      { value: 'u-main', label: 'MAIN – MAIN clinic', depth: 0, disabled: false },
      { value: 'u-north', label: 'NORTH – NORTH clinic', depth: 1, disabled: false },
    ]);
  });

  it('names a closed unit and offers it only to a user who already works in it', () => {
    expect(unitOptions([main, south])[1]).toEqual({
      value: 'u-south',
      label: 'SOUTH – SOUTH clinic (closed)',
      depth: 1,
      disabled: true,
    });
    const current = [{ id: 'u-south', code: 'SOUTH', name: 'SOUTH clinic' }];
    expect(unitOptions([main, south], current)[1]?.disabled).toBe(false);
  });

  it('keeps a unit of the user that the tree does not list', () => {
    const elsewhere = { id: 'u-east', code: 'EAST', name: 'East clinic' };
    expect(unitOptions([main], [elsewhere]).map((option) => option.value)).toEqual([
      'u-main',
      'u-east',
    ]);
  });
});

describe('onlyUnit', () => {
  it('is the unit of a tree of one, and nothing once there are more', () => {
    expect(onlyUnit([main])).toBe(main);
    expect(onlyUnit([main, north])).toBeUndefined();
    expect(onlyUnit([])).toBeUndefined();
  });
});

describe('sameUnitIds', () => {
  it('compares the units named, not their order or repeats', () => {
    expect(sameUnitIds(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameUnitIds(['a', 'a'], ['a'])).toBe(true);
    expect(sameUnitIds(['a'], ['a', 'b'])).toBe(false);
    expect(sameUnitIds(['a', 'b'], ['a', 'c'])).toBe(false);
  });
});

describe('unitLabel', () => {
  it('reads code then name', () => {
    expect(unitLabel({ code: 'MAIN', name: 'Main clinic' })).toBe('MAIN – Main clinic');
  });
});
