import { describe, expect, it } from 'vitest';
import { canOpenStep, isStepComplete, landingStep, type StepFacts } from './steps.ts';
import type { WizardStep } from '../components/assessment/wizardSteps.ts';

const nothing: StepFacts = {
  demographics: {},
  unitMissing: false,
  symptoms: {},
  management: {},
  hasResults: false,
  signedOff: false,
};
const demographics = { age: 58, gender: 'Female', height: 165, weight: 80 } as const;
const filled: StepFacts = { ...nothing, demographics };
const allSteps: WizardStep[] = [1, 2, 3, 4, 5];

function reachable(facts: StepFacts): WizardStep[] {
  return allSteps.filter((step) => canOpenStep(facts, step));
}

function ticked(facts: StepFacts): WizardStep[] {
  return allSteps.filter((step) => isStepComplete(facts, step));
}

describe('step access (spec 4)', () => {
  it('opens only step 1 until age, gender, height and weight are given', () => {
    expect(reachable(nothing)).toEqual([1]);
    for (const field of ['age', 'gender', 'height', 'weight'] as const) {
      const withoutField = { ...demographics, [field]: undefined };
      expect(reachable({ ...nothing, demographics: withoutField })).toEqual([1]);
    }
    expect(reachable(filled)).toEqual([1, 2, 3, 4, 5]);
  });

  it('waits for the unit when step 1 asks for one, the demographics filled or not', () => {
    expect(reachable({ ...filled, unitMissing: true })).toEqual([1]);
    expect(ticked({ ...filled, unitMissing: true })).toEqual([2]);
    expect(reachable({ ...filled, unitMissing: true, hasResults: true })).toEqual([1, 5]);
  });

  it('needs an age above 0', () => {
    expect(reachable({ ...nothing, demographics: { ...demographics, age: 0 } })).toEqual([1]);
  });

  it('opens the results of an assessment that has them even without the demographics', () => {
    expect(reachable({ ...nothing, hasResults: true })).toEqual([1, 5]);
  });

  it('opens only the results once signed off', () => {
    expect(reachable({ ...filled, hasResults: true, signedOff: true })).toEqual([5]);
  });
});

describe('completion ticks (spec 4)', () => {
  it('ticks Risk Factors always, and the others by what was entered', () => {
    expect(ticked(nothing)).toEqual([2]);
    expect(ticked(filled)).toEqual([1, 2]);
    expect(
      ticked({
        ...filled,
        symptoms: { DM2: { fatigue: { present: false } } },
        management: { TB: { diagnosed: false } },
        hasResults: true,
      }),
    ).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('landingStep', () => {
  it('keeps a step that can be opened', () => {
    expect(landingStep(filled, 4)).toBe(4);
  });

  it('sends a step that cannot be opened to step 1, or to the results once signed off', () => {
    expect(landingStep(nothing, 3)).toBe(1);
    expect(landingStep({ ...filled, hasResults: true, signedOff: true }, 2)).toBe(5);
  });
});
