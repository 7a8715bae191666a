import { describe, expect, it } from 'vitest';
import type { DemographicField, RiskFactorCriterion } from './index.ts';
import {
  CONDITIONS,
  DEFAULT_RULE_SET,
  RULE_SETS,
  ruleSetByVersion,
  SYMPTOM_CATALOGUE,
} from './index.ts';

/** A literal copy of Clinical Guidelines Version 2.0 as first written: the file must not drift. */
const GUIDELINES_2_0 = {
  version: '2.0',
  name: 'Clinical Guidelines Version 2.0',
  severityMultipliers: { mild: 1.5, moderate: 1.75, severe: 2 },
  weightChangeMultipliers: { loss: 1, gain: null },
  unratedMultiplier: 1,
  comorbidityScore: 1,
  conditions: {
    DM2: {
      threshold: 2,
      managementCap: 1.75,
      symptoms: [
        { key: 'fatigue', name: 'Fatigue', weight: 0.85, scale: 'severity' },
        { key: 'thirst', name: 'Increased Thirst', weight: 0.75, scale: 'severity' },
        { key: 'frequentUrination', name: 'Frequent Urination', weight: 0.8, scale: 'none' },
        { key: 'hunger', name: 'Increased Hunger', weight: 0.6, scale: 'severity' },
      ],
      prerequisiteSymptoms: [],
      riskFactors: [
        {
          key: 'age50Plus',
          name: 'Age 50 or over',
          weight: 3,
          criterion: { kind: 'ageAtLeast', years: 50 },
        },
        {
          key: 'bmiOver25',
          name: 'BMI > 25',
          weight: 0.75,
          criterion: { kind: 'bmiAbove', bmi: 25 },
        },
        {
          key: 'familyHistory',
          name: 'Family history of Type 2 Diabetes',
          weight: 2.5,
          criterion: { kind: 'familyHistory', condition: 'DM2' },
        },
      ],
      demographicFieldsRead: ['age', 'height', 'weight'],
      comorbidities: [],
      lastDoctorVisitScores: {
        never: 1.5,
        '<4months': 0,
        '4-6months': 0,
        '6-12months': 0,
        '>12months': 1,
      },
      prescriptionDurationScores: {
        '<4months': 0.75,
        '4-6months': 0,
        '6-12months': 0,
        '>12months': 0,
      },
    },
    HIV: {
      threshold: 2,
      managementCap: 2.25,
      symptoms: [
        { key: 'weightLoss', name: 'Weight Loss', weight: 0.7, scale: 'weightChange' },
        { key: 'fever', name: 'Fever', weight: 0.8, scale: 'severity' },
        { key: 'rash', name: 'Rash', weight: 0.55, scale: 'severity' },
      ],
      prerequisiteSymptoms: [],
      riskFactors: [
        {
          key: 'female',
          name: 'Female',
          weight: 0.5,
          criterion: { kind: 'gender', gender: 'Female' },
        },
      ],
      demographicFieldsRead: ['gender'],
      comorbidities: ['TB'],
      lastDoctorVisitScores: {
        never: 1.5,
        '<4months': 0,
        '4-6months': 0,
        '6-12months': 0,
        '>12months': 1.25,
      },
      prescriptionDurationScores: {
        '<4months': 1,
        '4-6months': 0.5,
        '6-12months': 0,
        '>12months': 0,
      },
    },
    TB: {
      threshold: 2,
      managementCap: 2,
      symptoms: [
        { key: 'coughOver14Days', name: 'Cough > 14 days', weight: 0.9, scale: 'none' },
        { key: 'weightLoss', name: 'Weight Loss', weight: 0.8, scale: 'weightChange' },
        { key: 'nightSweats', name: 'Night Sweats', weight: 0.7, scale: 'severity' },
        { key: 'fever', name: 'Fever', weight: 0.75, scale: 'severity' },
      ],
      prerequisiteSymptoms: [],
      riskFactors: [
        {
          key: 'householdTBExposure',
          name: 'Household TB exposure',
          weight: 1,
          criterion: { kind: 'householdTBExposure' },
        },
      ],
      demographicFieldsRead: [],
      comorbidities: ['HIV'],
      lastDoctorVisitScores: {
        never: 1.5,
        '<4months': 0,
        '4-6months': 0,
        '6-12months': 0,
        '>12months': 1,
      },
      prescriptionDurationScores: {
        '<4months': 1,
        '4-6months': 0.5,
        '6-12months': 0,
        '>12months': 0,
      },
    },
    Asthma: {
      threshold: 2,
      managementCap: 1.75,
      symptoms: [
        { key: 'coughOnOff', name: 'Cough (on and off)', weight: 0.75, scale: 'none' },
        { key: 'wheezing', name: 'Wheezing', weight: 0.9, scale: 'severity' },
      ],
      prerequisiteSymptoms: ['coughOnOff', 'wheezing'],
      riskFactors: [
        {
          key: 'ageUnder50',
          name: 'Age under 50',
          weight: 1.2,
          criterion: { kind: 'ageBetween', above: 0, below: 50 },
        },
        {
          key: 'smoking',
          name: 'Smoking (current or within 5 years)',
          weight: 1.33,
          criterion: { kind: 'smoking' },
        },
        {
          key: 'familyHistory',
          name: 'Family history of Asthma',
          weight: 2.8,
          criterion: { kind: 'familyHistory', condition: 'Asthma' },
        },
      ],
      demographicFieldsRead: ['age'],
      comorbidities: [],
      lastDoctorVisitScores: {
        never: 1.5,
        '<4months': 0,
        '4-6months': 0.75,
        '6-12months': 0.75,
        '>12months': 1,
      },
      prescriptionDurationScores: {
        '<4months': 0.75,
        '4-6months': 0,
        '6-12months': 0,
        '>12months': 0,
      },
    },
    Hypertension: {
      threshold: 3,
      managementCap: 1.75,
      symptoms: [
        { key: 'headache', name: 'Headache', weight: 0.75, scale: 'severity' },
        { key: 'dizziness', name: 'Dizziness', weight: 0.7, scale: 'severity' },
        { key: 'palpitations', name: 'Palpitations', weight: 0.55, scale: 'severity' },
      ],
      prerequisiteSymptoms: [],
      riskFactors: [
        {
          key: 'familyHistory',
          name: 'Family history of Hypertension',
          weight: 1.8,
          criterion: { kind: 'familyHistory', condition: 'Hypertension' },
        },
      ],
      demographicFieldsRead: [],
      comorbidities: ['DM2', 'Hyperlipidaemia'],
      lastDoctorVisitScores: {
        never: 1.5,
        '<4months': 0,
        '4-6months': 0.75,
        '6-12months': 0.75,
        '>12months': 1,
      },
      prescriptionDurationScores: {
        '<4months': 0.75,
        '4-6months': 0,
        '6-12months': 0,
        '>12months': 0,
      },
    },
    Hyperlipidaemia: {
      threshold: 1,
      managementCap: 2,
      // Asymptomatic: scored on risk factors, comorbidities and management only.
      symptoms: [],
      prerequisiteSymptoms: [],
      riskFactors: [
        {
          key: 'bmiOver25',
          name: 'BMI > 25',
          weight: 0.7,
          criterion: { kind: 'bmiAbove', bmi: 25 },
        },
        {
          key: 'familyHistory',
          name: 'Family history of Hyperlipidaemia',
          weight: 2.5,
          criterion: { kind: 'familyHistory', condition: 'Hyperlipidaemia' },
        },
      ],
      demographicFieldsRead: ['height', 'weight'],
      comorbidities: ['DM2', 'Hypertension'],
      lastDoctorVisitScores: {
        never: 1.5,
        '<4months': 0,
        '4-6months': 0,
        '6-12months': 0,
        '>12months': 1,
      },
      prescriptionDurationScores: {
        '<4months': 1,
        '4-6months': 0.5,
        '6-12months': 0,
        '>12months': 0,
      },
    },
  },
};

describe('the rule set files', () => {
  it('load 2.0, the default, first, then the DM2 BMI trial', () => {
    expect(RULE_SETS.map((ruleSet) => ruleSet.version)).toEqual(['2.0', '2.0-dm2-bmi-0.25']);
    expect(DEFAULT_RULE_SET).toBe(RULE_SETS[0]);
    expect(ruleSetByVersion('2.0')).toBe(DEFAULT_RULE_SET);
    expect(() => ruleSetByVersion('1.0')).toThrow('Unknown rule set version 1.0');
  });

  it('keep 2.0 exactly as the guidelines give it', () => {
    expect(DEFAULT_RULE_SET).toEqual(GUIDELINES_2_0);
  });

  it('make the trial 2.0 with DM2 BMI > 25 weighing 0.25, nothing else changed', () => {
    const trial = ruleSetByVersion('2.0-dm2-bmi-0.25');
    const { DM2 } = GUIDELINES_2_0.conditions;
    expect(trial).toEqual({
      ...GUIDELINES_2_0,
      version: '2.0-dm2-bmi-0.25',
      name: 'Trial: DM2 BMI weight 0.25 (not the default guidelines)',
      conditions: {
        ...GUIDELINES_2_0.conditions,
        DM2: {
          ...DM2,
          riskFactors: DM2.riskFactors.map((factor) =>
            factor.key === 'bmiOver25' ? { ...factor, weight: 0.25 } : factor,
          ),
        },
      },
    });
  });

  it('are frozen, so no caller can change the rules others score with', () => {
    expect(Object.isFrozen(DEFAULT_RULE_SET.conditions.DM2.riskFactors[1])).toBe(true);
  });

  it('weigh exactly the questions of the symptom catalogue', () => {
    for (const ruleSet of RULE_SETS) {
      for (const condition of CONDITIONS) {
        expect(
          ruleSet.conditions[condition].symptoms.map(({ key, scale }) => ({ key, scale })),
        ).toEqual(SYMPTOM_CATALOGUE[condition]);
      }
    }
  });
});

describe('rule set 2.0 data', () => {
  it('holds the symptom catalogue of spec 3.5: key, weight and severity support', () => {
    const catalogue = Object.fromEntries(
      CONDITIONS.map((condition) => [
        condition,
        DEFAULT_RULE_SET.conditions[condition].symptoms.map(({ key, weight, scale }) => [
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
      const { threshold, managementCap } = DEFAULT_RULE_SET.conditions[condition];
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
    expect(DEFAULT_RULE_SET.severityMultipliers).toEqual({ mild: 1.5, moderate: 1.75, severe: 2 });
    expect(DEFAULT_RULE_SET.unratedMultiplier).toBe(1);
    expect(DEFAULT_RULE_SET.weightChangeMultipliers).toEqual({ loss: 1, gain: null });
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
      const rules = DEFAULT_RULE_SET.conditions[condition];
      const read = new Set(
        rules.riskFactors.flatMap((factor) => fieldsRead[factor.criterion.kind]),
      );
      expect([...rules.demographicFieldsRead].sort(), condition).toEqual([...read].sort());
    }
  });

  it('names only symptoms of the condition itself as prerequisites', () => {
    for (const condition of CONDITIONS) {
      const rules = DEFAULT_RULE_SET.conditions[condition];
      const keys = rules.symptoms.map((symptom) => symptom.key);
      for (const key of rules.prerequisiteSymptoms) expect(keys, condition).toContain(key);
    }
  });

  it('keeps every display name ASCII, which keeps result serialization fast', () => {
    const names = CONDITIONS.flatMap((condition) => {
      const rules = DEFAULT_RULE_SET.conditions[condition];
      return [...rules.symptoms, ...rules.riskFactors].map((item) => item.name);
    });
    for (const name of names) expect(name).toMatch(/^[\x20-\x7e]+$/);
  });
});
