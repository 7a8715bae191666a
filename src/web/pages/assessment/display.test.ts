import { describe, expect, it } from 'vitest';
import { RISK_STATUSES } from '../../../engine/index.ts';
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
    expect(lastDoctorVisitOption('HIV', 'never')).toBe('Never (1.50)');
    expect(lastDoctorVisitOption('HIV', '>12months')).toBe('More than 12 months ago (1.25)');
    expect(lastDoctorVisitOption('DM2', '>12months')).toBe('More than 12 months ago (1.00)');
    expect(lastDoctorVisitOption('Asthma', '4-6months')).toBe('4-6 months ago (0.75)');
    expect(prescriptionDurationOption('TB', '4-6months')).toBe('4-6 months (0.50)');
    expect(prescriptionDurationOption('DM2', '<4months')).toBe('Less than 4 months (0.75)');
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
