/** Arbitraries of valid patient data for property tests: every part optional, every answer of the catalogue. */
import fc from 'fast-check';
import type { PatientData, SymptomScale } from '../index.ts';
import {
  CONDITIONS,
  FAMILY_HISTORY_CONDITIONS,
  GENDERS,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  SEVERITIES,
  SYMPTOM_CATALOGUE,
} from '../index.ts';

const optional = { requiredKeys: [] as never[] };

function severityArbitrary(scale: SymptomScale) {
  return scale === 'weightChange'
    ? fc.constantFrom('loss', 'gain')
    : fc.constantFrom(...SEVERITIES);
}

export const symptomsArbitrary = fc.record(
  Object.fromEntries(
    CONDITIONS.map((condition) => [
      condition,
      fc.record(
        Object.fromEntries(
          (SYMPTOM_CATALOGUE[condition] as readonly { key: string; scale: SymptomScale }[]).map(
            (symptom) => [
              symptom.key,
              fc.record(
                { present: fc.boolean(), severity: severityArbitrary(symptom.scale) },
                { requiredKeys: ['present'] },
              ),
            ],
          ),
        ),
        optional,
      ),
    ]),
  ),
  optional,
);

export const demographicsArbitrary = fc.record(
  {
    age: fc.integer({ min: 0, max: 120 }),
    gender: fc.constantFrom(...GENDERS),
    height: fc.double({ min: 50, max: 250, noNaN: true }),
    weight: fc.double({ min: 1, max: 500, noNaN: true }),
  },
  optional,
);

export const completeDemographicsArbitrary = fc.record({
  age: fc.integer({ min: 0, max: 120 }),
  gender: fc.constantFrom(...GENDERS),
  height: fc.double({ min: 50, max: 250, noNaN: true }),
  weight: fc.double({ min: 1, max: 500, noNaN: true }),
});

export const riskFactorsArbitrary = fc.record(
  {
    smoking: fc.boolean(),
    familyHistory: fc.record(
      Object.fromEntries(FAMILY_HISTORY_CONDITIONS.map((condition) => [condition, fc.boolean()])),
      optional,
    ),
    householdTBExposure: fc.boolean(),
  },
  optional,
);

export const managementArbitrary = fc.record(
  Object.fromEntries(
    CONDITIONS.map((condition) => [
      condition,
      fc.record(
        {
          diagnosed: fc.boolean(),
          lastDoctorVisit: fc.constantFrom(...LAST_DOCTOR_VISIT_OPTIONS),
          prescriptionDuration: fc.constantFrom(...PRESCRIPTION_DURATION_OPTIONS),
        },
        { requiredKeys: ['diagnosed'] },
      ),
    ]),
  ),
  optional,
);

// Built from the catalogue, so TypeScript sees plain records; the shapes are those of PatientData.
export const patientArbitrary = fc.record(
  {
    demographics: demographicsArbitrary,
    riskFactors: riskFactorsArbitrary,
    symptoms: symptomsArbitrary,
    management: managementArbitrary,
  },
  optional,
) as fc.Arbitrary<PatientData>;

/** Inputs with complete demographics and no diagnosis: every status is FALSE, MAYBE or TRUE. */
export const undiagnosedCompleteArbitrary = fc.record({
  demographics: completeDemographicsArbitrary,
  riskFactors: riskFactorsArbitrary,
  symptoms: symptomsArbitrary,
}) as fc.Arbitrary<PatientData>;
