import { describe, expect, it } from 'vitest';
import { calculateBMI, isAssessmentComplete } from './index.ts';

describe('BMI (decisions 3, spec 5)', () => {
  it('is weight / (height in m)^2, unrounded', () => {
    expect(calculateBMI(165, 80)).toBe(80 / (1.65 * 1.65));
    expect(calculateBMI(165, 80)).toBeCloseTo(29.384756657, 8);
    expect(calculateBMI(200, 100)).toBe(25);
  });

  it('is 0 when the height or the weight is missing', () => {
    expect(calculateBMI(undefined, 80)).toBe(0);
    expect(calculateBMI(165, undefined)).toBe(0);
    expect(calculateBMI(undefined, undefined)).toBe(0);
  });

  it('is 0 rather than Infinity for a height of 0', () => {
    expect(calculateBMI(0, 80)).toBe(0);
  });
});

describe('assessmentComplete (spec 5)', () => {
  const complete = { age: 40, gender: 'Female', height: 170, weight: 60 } as const;

  it('is true when age, gender, height and weight are all present', () => {
    expect(isAssessmentComplete(complete)).toBe(true);
  });

  it.each(['age', 'gender', 'height', 'weight'] as const)(
    'is false when %s is missing',
    (field) => {
      const demographics: Record<string, unknown> = { ...complete };
      delete demographics[field];
      expect(isAssessmentComplete(demographics)).toBe(false);
    },
  );

  it('is false without demographics', () => {
    expect(isAssessmentComplete(undefined)).toBe(false);
  });

  it('reading: an age of 0 is an answer, so it counts as present', () => {
    expect(isAssessmentComplete({ ...complete, age: 0 })).toBe(true);
  });
});
