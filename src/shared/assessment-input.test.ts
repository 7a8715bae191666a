import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PatientData } from '../engine/index.ts';
import { CONDITIONS, SYMPTOM_CATALOGUE } from '../engine/index.ts';
import type { AssessmentInput } from './assessment-input.ts';
import { assessmentInputSchema, formatInputIssues } from './assessment-input.ts';

/** The formatted issues of an input the schema refuses. */
function problemsOf(input: unknown): string[] {
  const result = assessmentInputSchema.safeParse(input);
  if (result.success) throw new Error('expected the input to be refused');
  return formatInputIssues(result.error);
}

const fullInput = {
  demographics: { age: 45, gender: 'Female', height: 162.5, weight: 70.2 },
  riskFactors: {
    smoking: true,
    familyHistory: { DM2: true, Asthma: false, Hypertension: true, Hyperlipidaemia: false },
    householdTBExposure: false,
  },
  symptoms: {
    DM2: {
      fatigue: { present: true, severity: 'mild' },
      thirst: { present: false },
      frequentUrination: { present: true },
      hunger: { present: true, severity: 'severe' },
    },
    HIV: {
      weightLoss: { present: true, severity: 'gain' },
      fever: { present: false },
      rash: { present: true },
    },
    TB: {
      coughOver14Days: { present: true, severity: 'moderate' },
      weightLoss: { present: true, severity: 'loss' },
      nightSweats: { present: false },
      fever: { present: true, severity: 'moderate' },
    },
    Asthma: { coughOnOff: { present: false }, wheezing: { present: true, severity: 'mild' } },
    Hypertension: {
      headache: { present: false },
      dizziness: { present: false },
      palpitations: { present: false },
    },
    Hyperlipidaemia: {},
  },
  management: {
    DM2: { diagnosed: true, lastDoctorVisit: 'never', prescriptionDuration: '<4months' },
    HIV: { diagnosed: false },
    TB: { diagnosed: false },
    Asthma: { diagnosed: true, lastDoctorVisit: '6-12months' },
    Hypertension: { diagnosed: false },
    Hyperlipidaemia: { diagnosed: true, prescriptionDuration: '>12months' },
  },
};

describe('assessmentInputSchema', () => {
  it('accepts a fully answered input unchanged', () => {
    expect(assessmentInputSchema.parse(fullInput)).toEqual(fullInput);
  });

  it('accepts an input with nothing answered: every part is optional', () => {
    expect(assessmentInputSchema.parse({})).toEqual({});
    expect(
      assessmentInputSchema.parse({
        demographics: {},
        riskFactors: { familyHistory: {} },
        symptoms: {},
        management: {},
      }),
    ).toEqual({
      demographics: {},
      riskFactors: { familyHistory: {} },
      symptoms: {},
      management: {},
    });
  });

  it('accepts every symptom of the catalogue, with the severities of its scale', () => {
    for (const condition of CONDITIONS) {
      for (const symptom of SYMPTOM_CATALOGUE[condition] as readonly {
        key: string;
        scale: string;
      }[]) {
        const severity = symptom.scale === 'weightChange' ? 'loss' : 'severe';
        const input = { symptoms: { [condition]: { [symptom.key]: { present: true, severity } } } };
        expect(assessmentInputSchema.safeParse(input).success, `${condition}.${symptom.key}`).toBe(
          true,
        );
      }
    }
  });

  it('its output is accepted by the engine', () => {
    expectTypeOf<AssessmentInput>().toExtend<PatientData>();
  });
});

describe('assessmentInputSchema refuses, naming the field', () => {
  it.each([
    [{ demographics: { age: 121 } }, 'demographics.age: Too big: expected number to be <=120'],
    [{ demographics: { age: -1 } }, 'demographics.age: Too small: expected number to be >=0'],
    [{ demographics: { age: 40.5 } }, 'demographics.age: Invalid input: expected a whole number'],
    [
      { demographics: { height: 49.9 } },
      'demographics.height: Too small: expected number to be >=50',
    ],
    [
      { demographics: { height: 250.1 } },
      'demographics.height: Too big: expected number to be <=250',
    ],
    [
      { demographics: { weight: 0.5 } },
      'demographics.weight: Too small: expected number to be >=1',
    ],
    [
      { demographics: { weight: 501 } },
      'demographics.weight: Too big: expected number to be <=500',
    ],
    [
      { demographics: { gender: 'Other' } },
      'demographics.gender: Invalid option: expected one of "Male"|"Female"',
    ],
    [
      { demographics: { age: '40' } },
      'demographics.age: Invalid input: expected number, received string',
    ],
  ])('%j', (input, problem) => {
    expect(problemsOf(input)).toEqual([problem]);
  });

  it('an unknown condition', () => {
    expect(problemsOf({ symptoms: { Diabetes: {} } })).toEqual([
      'symptoms: Unknown condition "Diabetes"',
    ]);
    expect(problemsOf({ management: { COPD: { diagnosed: true } } })).toEqual([
      'management: Unknown condition "COPD"',
    ]);
  });

  it('an unknown symptom, or a symptom of another condition', () => {
    expect(problemsOf({ symptoms: { HIV: { cough: { present: true } } } })).toEqual([
      'symptoms.HIV: Unknown symptom "cough" for HIV',
    ]);
    expect(problemsOf({ symptoms: { Hyperlipidaemia: { headache: { present: true } } } })).toEqual([
      'symptoms.Hyperlipidaemia: Unknown symptom "headache" for Hyperlipidaemia',
    ]);
  });

  it('a severity outside the symptom scale', () => {
    expect(
      problemsOf({ symptoms: { HIV: { weightLoss: { present: true, severity: 'mild' } } } }),
    ).toEqual(['symptoms.HIV.weightLoss.severity: Invalid option: expected one of "loss"|"gain"']);
    expect(
      problemsOf({ symptoms: { TB: { fever: { present: true, severity: 'gain' } } } }),
    ).toEqual([
      'symptoms.TB.fever.severity: Invalid option: expected one of "mild"|"moderate"|"severe"',
    ]);
    expect(
      problemsOf({ symptoms: { DM2: { frequentUrination: { present: true, severity: 'loss' } } } }),
    ).toEqual([
      'symptoms.DM2.frequentUrination.severity: Invalid option: expected one of "mild"|"moderate"|"severe"',
    ]);
  });

  it('a symptom answer without present', () => {
    expect(problemsOf({ symptoms: { DM2: { fatigue: { severity: 'mild' } } } })).toEqual([
      'symptoms.DM2.fatigue.present: Invalid input: expected boolean, received undefined',
    ]);
  });

  it('an unknown visit or prescription option', () => {
    expect(
      problemsOf({ management: { TB: { diagnosed: true, lastDoctorVisit: '1-2months' } } }),
    ).toEqual([
      'management.TB.lastDoctorVisit: Invalid option: expected one of "never"|"<4months"|"4-6months"|"6-12months"|">12months"',
    ]);
    expect(
      problemsOf({ management: { TB: { diagnosed: true, prescriptionDuration: 'never' } } }),
    ).toEqual([
      'management.TB.prescriptionDuration: Invalid option: expected one of "<4months"|"4-6months"|"6-12months"|">12months"',
    ]);
  });

  it('unknown fields at any level', () => {
    expect(problemsOf({ notes: 'x' })).toEqual(['Unknown field "notes"']);
    expect(problemsOf({ demographics: { bmi: 22 } })).toEqual([
      'demographics: Unknown demographic field "bmi"',
    ]);
    expect(problemsOf({ riskFactors: { alcohol: true } })).toEqual([
      'riskFactors: Unknown risk factor "alcohol"',
    ]);
    expect(problemsOf({ riskFactors: { familyHistory: { TB: true } } })).toEqual([
      'riskFactors.familyHistory: Unknown family history condition "TB"',
    ]);
  });

  it('something that is not an object', () => {
    expect(problemsOf([])).toEqual(['Invalid input: expected object, received array']);
    expect(problemsOf(null)).toEqual(['Invalid input: expected object, received null']);
  });

  it('lists every problem of an input', () => {
    expect(problemsOf({ demographics: { age: 200, gender: 'X' } })).toHaveLength(2);
  });
});
