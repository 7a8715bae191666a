/** The worked cases of docs/SCORING.md, with the figures worked there by hand. */
import { describe, expect, it } from 'vitest';
import type { AssessmentResult, PatientData, RiskStatus } from './index.ts';
import { CONDITIONS, score } from './index.ts';

/** status, factor count, symptom, risk factor, comorbidity, management, total */
type ConditionRow = [RiskStatus, number, number, number, number, number, number];

interface WorkedCase {
  name: string;
  input: PatientData;
  patientBMI: number;
  assessmentComplete: boolean;
  conditions: [ConditionRow, ConditionRow, ConditionRow, ConditionRow, ConditionRow, ConditionRow];
  totalScore: number;
}

const cases: WorkedCase[] = [
  {
    name: 'Case 1: complete demographics',
    input: {
      demographics: { age: 58, gender: 'Female', height: 165, weight: 80 },
      riskFactors: {
        smoking: false,
        familyHistory: { DM2: true, Asthma: false, Hypertension: true, Hyperlipidaemia: true },
        householdTBExposure: false,
      },
      symptoms: {
        DM2: {
          fatigue: { present: false },
          thirst: { present: true, severity: 'moderate' },
          frequentUrination: { present: true, severity: 'severe' },
        },
        HIV: {
          fever: { present: true, severity: 'mild' },
          weightLoss: { present: true, severity: 'gain' },
        },
        TB: { nightSweats: { present: true, severity: 'severe' } },
        Asthma: { coughOnOff: { present: false }, wheezing: { present: false } },
        Hypertension: { headache: { present: true, severity: 'severe' } },
      },
      management: {
        Hypertension: {
          diagnosed: true,
          lastDoctorVisit: '6-12months',
          prescriptionDuration: '<4months',
        },
      },
    },
    patientBMI: 29.3848,
    assessmentComplete: true,
    conditions: [
      ['TRUE', 5, 2.1125, 6.25, 0, 0, 8.3625],
      ['MAYBE', 2, 1.2, 0.5, 0, 0, 1.7],
      ['FALSE', 1, 1.4, 0, 0, 0, 1.4],
      ['FALSE', 0, 0, 0, 0, 0, 0],
      ['DIAGNOSED', 2, 1.5, 1.8, 0, 1.5, 4.8],
      ['TRUE', 2, 0, 3.2, 1, 0, 4.2],
    ],
    totalScore: 20.4625,
  },
  {
    name: 'Case 2: height and gender missing',
    input: {
      demographics: { age: 34, weight: 70 },
      riskFactors: { smoking: true, familyHistory: { Asthma: true }, householdTBExposure: true },
      symptoms: {
        DM2: { fatigue: { present: true, severity: 'mild' } },
        HIV: { weightLoss: { present: true, severity: 'loss' } },
        TB: {
          coughOver14Days: { present: true },
          weightLoss: { present: true, severity: 'loss' },
        },
        Asthma: {
          coughOnOff: { present: true },
          wheezing: { present: true, severity: 'moderate' },
        },
      },
      management: {
        HIV: { diagnosed: true, lastDoctorVisit: 'never', prescriptionDuration: '<4months' },
      },
    },
    patientBMI: 0,
    assessmentComplete: false,
    conditions: [
      ['UNKNOWN', 1, 1.275, 0, 0, 0, 1.275],
      ['DIAGNOSED', 1, 0.7, 0, 0, 2.25, 2.95],
      ['TRUE', 3, 1.7, 1, 1, 0, 3.7],
      ['TRUE', 5, 2.325, 5.33, 0, 0, 7.655],
      ['FALSE', 0, 0, 0, 0, 0, 0],
      ['UNKNOWN', 0, 0, 0, 0, 0, 0],
    ],
    totalScore: 15.58,
  },
  {
    name: 'Case 3: age missing',
    input: {
      demographics: { gender: 'Male', height: 170, weight: 90 },
      riskFactors: { smoking: true, familyHistory: { DM2: true } },
      symptoms: {
        DM2: { thirst: { present: true, severity: 'severe' } },
        Hypertension: {
          headache: { present: true, severity: 'mild' },
          dizziness: { present: true, severity: 'moderate' },
          palpitations: { present: true },
        },
      },
      management: {
        Asthma: { diagnosed: true, lastDoctorVisit: '4-6months', prescriptionDuration: '<4months' },
        Hyperlipidaemia: {
          diagnosed: true,
          lastDoctorVisit: '>12months',
          prescriptionDuration: '<4months',
        },
      },
    },
    patientBMI: 31.1419,
    assessmentComplete: false,
    conditions: [
      ['TRUE', 3, 1.5, 3.25, 0, 0, 4.75],
      ['FALSE', 0, 0, 0, 0, 0, 0],
      ['FALSE', 0, 0, 0, 0, 0, 0],
      ['DIAGNOSED', 1, 0, 1.33, 0, 1.5, 2.83],
      ['MAYBE', 3, 2.9, 0, 1, 0, 3.9],
      ['DIAGNOSED', 1, 0, 0.7, 0, 2, 2.7],
    ],
    totalScore: 14.18,
  },
];

function rowsOf(result: AssessmentResult): ConditionRow[] {
  return result.conditions.map(({ riskStatus, factorCount, components, totalScore }) => [
    riskStatus,
    factorCount,
    components.symptomScore,
    components.riskFactorScore,
    components.comorbidityScore,
    components.managementScore,
    totalScore,
  ]);
}

describe('docs/SCORING.md worked cases', () => {
  it.each(cases)('$name', (worked) => {
    const result = score(worked.input);
    // The document works to 4 decimals; floating point leaves traces beyond 12.
    expect(result.patientBMI).toBeCloseTo(worked.patientBMI, 4);
    expect(result.assessmentComplete).toBe(worked.assessmentComplete);
    expect(result.totalScore).toBeCloseTo(worked.totalScore, 12);
    const rows = rowsOf(result);
    for (const [index, [status, factorCount, ...scores]] of worked.conditions.entries()) {
      const row = rows[index] ?? [];
      expect(row.slice(0, 2), CONDITIONS[index]).toEqual([status, factorCount]);
      for (const [position, value] of scores.entries()) {
        expect(row[position + 2], CONDITIONS[index]).toBeCloseTo(value, 12);
      }
    }
  });

  it('Case 2: the HIV management score 1.5 + 1 = 2.5 is capped at 2.25', () => {
    const hiv = score(cases[1]?.input ?? {}).conditions[1];
    expect(hiv).toMatchObject({ managementScore: 2.25, details: { managementCap: 2.25 } });
  });

  it('Case 1: the HIV weight gain is not listed, the DM2 frequent urination counts with multiplier 1', () => {
    const [dm2, hiv] = score(cases[0]?.input ?? {}).conditions;
    expect(hiv?.details.symptoms.map((symptom) => symptom.name)).toEqual(['Fever']);
    expect(dm2?.details.symptoms).toContainEqual({
      name: 'Frequent Urination',
      weight: 0.8,
      severityMultiplier: 1,
      contribution: 0.8,
    });
  });
});
