import { describe, expect, it } from 'vitest';
import type { OrgUnitInTree } from '../api/org-units.ts';
import type { DraftStorage } from './draft.ts';
import {
  asksForUnit,
  assessmentUnitLabel,
  keepUnitChoice,
  openUnits,
  readKeptUnitChoice,
  resolveAssessmentUnit,
  unitChoiceKey,
  unitMissing,
} from './unitChoice.ts';

function unit(id: string, code: string, name: string, closedAt: string | null = null) {
  const inTree: OrgUnitInTree = {
    id,
    code,
    name,
    parentId: 'u-district',
    version: 1,
    closedAt,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    depth: 1,
  };
  return inTree;
}

const alder = { id: 'u-alder', code: 'F-A', name: 'Alder Clinic' };
const birch = { id: 'u-birch', code: 'F-B', name: 'Birch Clinic' };
const cedar = { id: 'u-cedar', code: 'F-C', name: 'Cedar Clinic' };

function memoryStorage(): DraftStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('the units offered', () => {
  it('names a unit by its name and code', () => {
    expect(assessmentUnitLabel(alder)).toBe('Alder Clinic (F-A)');
  });

  it('offers the open units of the tree in its order, never a closed one', () => {
    const tree = [
      unit('u-alder', 'F-A', 'Alder Clinic'),
      unit('u-old', 'F-O', 'Old Clinic', '2026-02-01T00:00:00.000Z'),
      unit('u-birch', 'F-B', 'Birch Clinic'),
    ];
    expect(openUnits(tree)).toEqual([alder, birch]);
  });

  it('asks for the unit only with two open units or more to choose from', () => {
    expect(asksForUnit(null)).toBe(false);
    expect(asksForUnit([])).toBe(false);
    expect(asksForUnit([alder])).toBe(false);
    expect(
      asksForUnit(openUnits([unit('u-alder', 'F-A', 'A'), unit('u-old', 'F-O', 'O', 'x')])),
    ).toBe(false);
    expect(asksForUnit([alder, birch])).toBe(true);
  });
});

describe('resolveAssessmentUnit', () => {
  it('keeps the unit chosen while it is offered', () => {
    expect(resolveAssessmentUnit(birch.id, [alder, birch], alder.id)).toBe(birch.id);
  });

  it('starts with the unit remembered on this device when it is offered, else with none', () => {
    expect(resolveAssessmentUnit(null, [alder, birch], birch.id)).toBe(birch.id);
    expect(resolveAssessmentUnit(null, [alder, birch], cedar.id)).toBeNull();
    expect(resolveAssessmentUnit(null, [alder, birch], null)).toBeNull();
  });

  it('drops a unit no longer offered for the remembered one, or none', () => {
    expect(resolveAssessmentUnit(cedar.id, [alder, birch], alder.id)).toBe(alder.id);
    expect(resolveAssessmentUnit(cedar.id, [alder, birch], cedar.id)).toBeNull();
  });

  it('sends none when there is nothing to choose: the server takes the only unit', () => {
    expect(resolveAssessmentUnit(alder.id, [alder], alder.id)).toBeNull();
    expect(resolveAssessmentUnit(null, [], alder.id)).toBeNull();
  });

  it('uses the remembered unit while the units are not known', () => {
    expect(resolveAssessmentUnit(null, null, alder.id)).toBe(alder.id);
    expect(resolveAssessmentUnit(birch.id, null, alder.id)).toBe(birch.id);
    expect(resolveAssessmentUnit(null, null, null)).toBeNull();
  });
});

describe('unitMissing', () => {
  it('waits for a unit only when it is asked for and none of those offered is chosen', () => {
    expect(unitMissing(null, [alder, birch])).toBe(true);
    expect(unitMissing(cedar.id, [alder, birch])).toBe(true);
    expect(unitMissing(alder.id, [alder, birch])).toBe(false);
    expect(unitMissing(null, [alder])).toBe(false);
    expect(unitMissing(null, null)).toBe(false);
  });
});

describe('the choice kept on this device', () => {
  it('is kept per user, and read back', () => {
    const storage = memoryStorage();
    keepUnitChoice('u1', { offered: [alder, birch], chosenId: birch.id }, storage);
    expect(readKeptUnitChoice('u1', storage)).toEqual({
      offered: [alder, birch],
      chosenId: birch.id,
    });
    expect(readKeptUnitChoice('u2', storage)).toEqual({ offered: null, chosenId: null });
    expect([...storage.items.keys()]).toEqual([unitChoiceKey('u1')]);
  });

  it('reads nothing from what is not a kept choice, or from storage that throws', () => {
    const storage = memoryStorage();
    storage.setItem(unitChoiceKey('u1'), 'not json');
    expect(readKeptUnitChoice('u1', storage)).toEqual({ offered: null, chosenId: null });
    storage.setItem(unitChoiceKey('u1'), JSON.stringify({ offered: [{ id: 1 }], chosenId: 'x' }));
    expect(readKeptUnitChoice('u1', storage)).toEqual({ offered: null, chosenId: null });
    const broken: DraftStorage = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => undefined,
    };
    expect(readKeptUnitChoice('u1', broken)).toEqual({ offered: null, chosenId: null });
    expect(() => keepUnitChoice('u1', { offered: null, chosenId: 'x' }, broken)).not.toThrow();
  });
});
