import type { RuleSet } from './types.ts';

/**
 * Clinical Guidelines Version 2.0: spec 3.5 (symptoms) and 9.2-9.3 (thresholds, caps, weights,
 * comorbidities, management), read as docs/SCORING.md explains after decisions.md section 3.
 * `as const` keeps the symptom keys and scales as literal types: the input contract is derived
 * from them. Names are plain ASCII on purpose: one non-ASCII character makes every result string
 * that holds it a two-byte string, which made serializing results about three times slower.
 */
export const RULE_SET_V2 = {
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
} as const satisfies RuleSet;

/** The rule set `score` uses unless given another. */
export const DEFAULT_RULE_SET: RuleSet = RULE_SET_V2;
