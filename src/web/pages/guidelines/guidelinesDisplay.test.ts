import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE_SET, type RuleSet } from '../../../engine/index.ts';
import {
  criterionText,
  missingFieldsText,
  prerequisiteText,
  scaleText,
  thresholdText,
} from './guidelinesDisplay.ts';

describe('criterionText', () => {
  it('words each kind of criterion with the figures of the data', () => {
    expect(criterionText({ kind: 'ageAtLeast', years: 50 })).toBe('Age 50 or over');
    expect(criterionText({ kind: 'ageAtLeast', years: 65 })).toBe('Age 65 or over');
    expect(criterionText({ kind: 'ageBetween', above: 0, below: 50 })).toBe('Age under 50');
    expect(criterionText({ kind: 'ageBetween', above: 17, below: 40 })).toBe(
      'Age over 17 and under 40',
    );
    expect(criterionText({ kind: 'bmiAbove', bmi: 27.5 })).toBe('BMI above 27.5');
    expect(criterionText({ kind: 'gender', gender: 'Female' })).toBe('Gender is Female');
    expect(criterionText({ kind: 'smoking' })).toBe('Smoking answered Yes');
    expect(criterionText({ kind: 'familyHistory', condition: 'DM2' })).toBe(
      'Family history of Type 2 Diabetes answered Yes',
    );
    expect(criterionText({ kind: 'householdTBExposure' })).toBe(
      'Household TB exposure answered Yes',
    );
  });
});

describe('scaleText', () => {
  const changed: RuleSet = {
    ...DEFAULT_RULE_SET,
    severityMultipliers: { mild: 1.2, moderate: 1.4, severe: 3 },
    weightChangeMultipliers: { loss: 1.1, gain: 0.5 },
    unratedMultiplier: 0.9,
  };

  it("gives the rule set's multipliers, not fixed ones", () => {
    expect(scaleText('severity', DEFAULT_RULE_SET)).toBe(
      'Severity: mild ×1.5, moderate ×1.75, severe ×2',
    );
    expect(scaleText('severity', changed)).toBe('Severity: mild ×1.2, moderate ×1.4, severe ×3');
    expect(scaleText('weightChange', DEFAULT_RULE_SET)).toBe(
      'Weight change: loss ×1, gain not counted',
    );
    expect(scaleText('weightChange', changed)).toBe('Weight change: loss ×1.1, gain ×0.5');
    expect(scaleText('none', changed)).toBe('Present or absent: ×0.9');
  });
});

describe('condition texts', () => {
  it('states the threshold, the fields read and the prerequisite from the data', () => {
    expect(thresholdText(DEFAULT_RULE_SET.conditions.Hypertension)).toMatch(/^Moderate Risk at 3 /);
    expect(missingFieldsText(DEFAULT_RULE_SET.conditions.DM2)).toBe(
      'While age, height or weight is missing, a Low or Moderate Risk reads Insufficient Data.',
    );
    expect(missingFieldsText(DEFAULT_RULE_SET.conditions.TB)).toBeNull();
    expect(prerequisiteText(DEFAULT_RULE_SET.conditions.Asthma)).toBe(
      'Scored only when Cough (on and off) or Wheezing is present (or the condition is diagnosed).',
    );
    expect(prerequisiteText(DEFAULT_RULE_SET.conditions.DM2)).toBeNull();
  });
});
