import { describe, expect, it } from 'vitest';
import { parseStep, wizardSteps } from './wizardSteps.ts';

describe('parseStep', () => {
  it('reads 1 to 5 and nothing else', () => {
    expect(wizardSteps.map((s) => parseStep(String(s.step)))).toEqual([1, 2, 3, 4, 5]);
    for (const value of [null, '', '0', '6', '2.0', 'two']) expect(parseStep(value)).toBeNull();
  });
});
