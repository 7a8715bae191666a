import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE_SET, RISK_STATUSES, ruleSetByVersion } from '../../../engine/index.ts';
import {
  bmiNote,
  lastDoctorVisitOption,
  needsAttention,
  prescriptionDurationOption,
  symptomContribution,
} from './display.ts';

describe('bmiNote (spec 2.6)', () => {
  it('says BMI counts only above 25', () => {
    expect(bmiNote(25.01)).toBe('BMI >25 will be considered in risk calculations');
    expect(bmiNote(25)).toBe('BMI ≤25');
  });
});

describe('needsAttention', () => {
  it('lists High, Moderate and Diagnosed only', () => {
    expect(RISK_STATUSES.filter(needsAttention)).toEqual(['MAYBE', 'TRUE', 'DIAGNOSED']);
  });
});

describe('management options', () => {
  it("show each option's score for the condition", () => {
    expect(lastDoctorVisitOption(DEFAULT_RULE_SET.conditions.HIV, 'never')).toBe('Never (1.50)');
    expect(lastDoctorVisitOption(DEFAULT_RULE_SET.conditions.HIV, '>12months')).toBe(
      'More than 12 months ago (1.25)',
    );
    expect(lastDoctorVisitOption(DEFAULT_RULE_SET.conditions.DM2, '>12months')).toBe(
      'More than 12 months ago (1.00)',
    );
    expect(lastDoctorVisitOption(DEFAULT_RULE_SET.conditions.Asthma, '4-6months')).toBe(
      '4-6 months ago (0.75)',
    );
    expect(prescriptionDurationOption(DEFAULT_RULE_SET.conditions.TB, '4-6months')).toBe(
      '4-6 months (0.50)',
    );
    expect(prescriptionDurationOption(DEFAULT_RULE_SET.conditions.DM2, '<4months')).toBe(
      'Less than 4 months (0.75)',
    );
  });

  it('show the scores of the rule set given', () => {
    const rules = {
      ...ruleSetByVersion('2.0-dm2-bmi-0.25').conditions.HIV,
      lastDoctorVisitScores: {
        never: 2,
        '<4months': 0,
        '4-6months': 0,
        '6-12months': 0,
        '>12months': 1,
      },
    };
    expect(lastDoctorVisitOption(rules, 'never')).toBe('Never (2.00)');
  });
});

describe('symptomContribution', () => {
  it('shows weight times multiplier and the contribution', () => {
    expect(
      symptomContribution({
        name: 'Increased Thirst',
        weight: 0.75,
        severityMultiplier: 1.75,
        contribution: 1.3125,
      }),
    ).toBe('Increased Thirst: 0.75 × 1.75 = 1.3125');
  });
});
