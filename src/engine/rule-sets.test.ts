import { describe, expect, it } from 'vitest';
import type { DemographicField, RiskFactorCriterion } from './index.ts';
import { CONDITIONS, DEFAULT_RULE_SET, RULE_SET_V2 } from './index.ts';

describe('rule set 2.0 data', () => {
  it('is the default rule set, version 2.0', () => {
    expect(DEFAULT_RULE_SET).toBe(RULE_SET_V2);
    expect(RULE_SET_V2.version).toBe('2.0');
  });

  it('holds the symptom catalogue of spec 3.5: key, weight and severity support', () => {
    const catalogue = Object.fromEntries(
      CONDITIONS.map((condition) => [
        condition,
        RULE_SET_V2.conditions[condition].symptoms.map(({ key, weight, scale }) => [
          key,
          weight,
          scale,
        ]),
      ]),
    );
    expect(catalogue).toEqual({
      DM2: [
        ['fatigue', 0.85, 'severity'],
        ['thirst', 0.75, 'severity'],
        ['frequentUrination', 0.8, 'none'],
        ['hunger', 0.6, 'severity'],
      ],
      HIV: [
        ['weightLoss', 0.7, 'weightChange'],
        ['fever', 0.8, 'severity'],
        ['rash', 0.55, 'severity'],
      ],
      TB: [
        ['coughOver14Days', 0.9, 'none'],
        ['weightLoss', 0.8, 'weightChange'],
        ['nightSweats', 0.7, 'severity'],
        ['fever', 0.75, 'severity'],
      ],
      Asthma: [
        ['coughOnOff', 0.75, 'none'],
        ['wheezing', 0.9, 'severity'],
      ],
      Hypertension: [
        ['headache', 0.75, 'severity'],
        ['dizziness', 0.7, 'severity'],
        ['palpitations', 0.55, 'severity'],
      ],
      Hyperlipidaemia: [],
    });
  });

  it('holds the thresholds and management caps of spec 9.2', () => {
    const table = CONDITIONS.map((condition) => {
      const { threshold, managementCap } = RULE_SET_V2.conditions[condition];
      return [condition, threshold, managementCap];
    });
    expect(table).toEqual([
      ['DM2', 2, 1.75],
      ['HIV', 2, 2.25],
      ['TB', 2, 2],
      ['Asthma', 2, 1.75],
      ['Hypertension', 3, 1.75],
      ['Hyperlipidaemia', 1, 2],
    ]);
  });

  it('holds the severity multipliers of spec 9.3', () => {
    expect(RULE_SET_V2.severityMultipliers).toEqual({ mild: 1.5, moderate: 1.75, severe: 2 });
    expect(RULE_SET_V2.unratedMultiplier).toBe(1);
    expect(RULE_SET_V2.weightChangeMultipliers).toEqual({ loss: 1, gain: null });
  });

  it('lists for each condition exactly the demographic fields its risk factors read', () => {
    const fieldsRead: Record<RiskFactorCriterion['kind'], DemographicField[]> = {
      ageAtLeast: ['age'],
      ageBetween: ['age'],
      bmiAbove: ['height', 'weight'],
      gender: ['gender'],
      smoking: [],
      familyHistory: [],
      householdTBExposure: [],
    };
    for (const condition of CONDITIONS) {
      const rules = RULE_SET_V2.conditions[condition];
      const read = new Set(
        rules.riskFactors.flatMap((factor) => fieldsRead[factor.criterion.kind]),
      );
      expect([...rules.demographicFieldsRead].sort(), condition).toEqual([...read].sort());
    }
  });

  it('names only symptoms of the condition itself as prerequisites', () => {
    for (const condition of CONDITIONS) {
      const rules = RULE_SET_V2.conditions[condition];
      const keys = rules.symptoms.map((symptom) => symptom.key);
      for (const key of rules.prerequisiteSymptoms) expect(keys, condition).toContain(key);
    }
  });

  it('keeps every display name ASCII, which keeps result serialization fast', () => {
    const names = CONDITIONS.flatMap((condition) => {
      const rules = RULE_SET_V2.conditions[condition];
      return [...rules.symptoms, ...rules.riskFactors].map((item) => item.name);
    });
    for (const name of names) expect(name).toMatch(/^[\x20-\x7e]+$/);
  });
});
