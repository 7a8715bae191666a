import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PatientData, RiskStatus } from './index.ts';
import {
  CONDITIONS,
  FAMILY_HISTORY_CONDITIONS,
  DEFAULT_RULE_SET,
  SEVERITIES,
  score,
} from './index.ts';
import {
  completeDemographicsArbitrary,
  patientArbitrary,
  undiagnosedCompleteArbitrary,
} from './testing/arbitraries.ts';

type Addition = (input: PatientData) => PatientData;

/** One more present, counted symptom, or one more risk-factor answer that could apply. */
const additionArbitrary: fc.Arbitrary<Addition> = fc.oneof(
  fc
    .constantFrom(
      ...CONDITIONS.flatMap((condition) =>
        DEFAULT_RULE_SET.conditions[condition].symptoms.map((symptom) => ({ condition, symptom })),
      ),
    )
    .chain(({ condition, symptom }) =>
      fc
        .option(
          symptom.scale === 'weightChange' ? fc.constant('loss') : fc.constantFrom(...SEVERITIES),
          {
            nil: undefined,
          },
        )
        .map((severity): Addition => (input) => ({
          ...input,
          symptoms: {
            ...input.symptoms,
            [condition]: {
              ...input.symptoms?.[condition],
              [symptom.key]:
                severity === undefined ? { present: true } : { present: true, severity },
            },
          },
        })),
    ),
  fc.constantFrom<Addition>(
    (input) => ({ ...input, riskFactors: { ...input.riskFactors, smoking: true } }),
    (input) => ({ ...input, riskFactors: { ...input.riskFactors, householdTBExposure: true } }),
    ...FAMILY_HISTORY_CONDITIONS.map((condition): Addition => (input) => ({
      ...input,
      riskFactors: {
        ...input.riskFactors,
        familyHistory: { ...input.riskFactors?.familyHistory, [condition]: true },
      },
    })),
  ),
  // Answering a missing demographic question can only add factors.
  completeDemographicsArbitrary.map((answers): Addition => (input) => ({
    ...input,
    demographics: { ...answers, ...input.demographics },
  })),
);

const RANK: Partial<Record<RiskStatus, number>> = { FALSE: 0, MAYBE: 1, TRUE: 2 };

function rankOf(status: RiskStatus): number {
  const rank = RANK[status];
  if (rank === undefined) throw new Error(`${status} is not a risk level`);
  return rank;
}

describe('properties', () => {
  it('total = sum of components, for every condition', () => {
    fc.assert(
      fc.property(patientArbitrary, (input) => {
        for (const result of score(input).conditions) {
          const { symptomScore, riskFactorScore, comorbidityScore, managementScore } =
            result.components;
          expect(result.totalScore).toBe(
            symptomScore + riskFactorScore + comorbidityScore + managementScore,
          );
        }
      }),
    );
  });

  it("management score <= the condition's cap, and 0 unless diagnosed", () => {
    fc.assert(
      fc.property(patientArbitrary, (input) => {
        for (const result of score(input).conditions) {
          const cap = DEFAULT_RULE_SET.conditions[result.condition].managementCap;
          expect(result.components.managementScore).toBeLessThanOrEqual(cap);
          expect(result.components.managementScore).toBeGreaterThanOrEqual(0);
          if (result.riskStatus === 'DIAGNOSED') {
            expect(result.managementScore).toBe(result.components.managementScore);
            expect(result.details.managementCap).toBe(cap);
          } else {
            expect(result.components.managementScore).toBe(0);
          }
        }
      }),
    );
  });

  it('a present symptom or a risk factor added never lowers a factor count', () => {
    fc.assert(
      fc.property(patientArbitrary, additionArbitrary, (input, add) => {
        const before = score(input).conditions;
        const after = score(add(input)).conditions;
        for (const [index, result] of after.entries()) {
          expect(result.factorCount).toBeGreaterThanOrEqual(before[index]?.factorCount ?? Infinity);
        }
      }),
    );
  });

  it('status never falls as the factor count rises', () => {
    fc.assert(
      fc.property(undiagnosedCompleteArbitrary, undiagnosedCompleteArbitrary, (first, second) => {
        const firstResults = score(first).conditions;
        const secondResults = score(second).conditions;
        for (const [index, a] of firstResults.entries()) {
          const b = secondResults[index];
          if (b === undefined || a.factorCount >= b.factorCount) continue;
          expect(rankOf(a.riskStatus)).toBeLessThanOrEqual(rankOf(b.riskStatus));
        }
      }),
    );
  });

  it('status never falls when a factor is added to an undiagnosed, complete assessment', () => {
    fc.assert(
      fc.property(undiagnosedCompleteArbitrary, additionArbitrary, (input, add) => {
        const before = score(input).conditions;
        const after = score(add(input)).conditions;
        for (const [index, result] of after.entries()) {
          const previous = before[index];
          if (previous === undefined) continue;
          expect(rankOf(result.riskStatus)).toBeGreaterThanOrEqual(rankOf(previous.riskStatus));
        }
      }),
    );
  });

  it('UNKNOWN only when a demographic field the condition reads is missing, and never for TRUE', () => {
    fc.assert(
      fc.property(patientArbitrary, (input) => {
        for (const result of score(input).conditions) {
          const missing = DEFAULT_RULE_SET.conditions[
            result.condition
          ].demographicFieldsRead.filter((field) => input.demographics?.[field] === undefined);
          if (result.riskStatus === 'UNKNOWN') {
            expect(missing.length).toBeGreaterThan(0);
            expect(result.factorCount).toBeLessThanOrEqual(result.details.threshold);
          }
        }
      }),
    );
  });

  it('the assessment total = sum of the condition totals', () => {
    fc.assert(
      fc.property(patientArbitrary, (input) => {
        const result = score(input);
        const sum = result.conditions.reduce((total, condition) => total + condition.totalScore, 0);
        expect(result.totalScore).toBe(sum);
      }),
    );
  });

  it('scoring is pure: the input is left unchanged and the same input gives the same result', () => {
    fc.assert(
      fc.property(patientArbitrary, (input) => {
        const copy = structuredClone(input);
        const result = score(input);
        expect(input).toEqual(copy);
        expect(score(copy)).toEqual(result);
      }),
    );
  });
});

describe('generated inputs', () => {
  it('cover diagnosed conditions and every status, so that the properties above are not vacuous', () => {
    const statuses = new Set<RiskStatus>();
    for (const input of fc.sample(patientArbitrary, { numRuns: 500, seed: 1 })) {
      for (const result of score(input).conditions) statuses.add(result.riskStatus);
    }
    expect([...statuses].sort()).toEqual(['DIAGNOSED', 'FALSE', 'MAYBE', 'TRUE', 'UNKNOWN']);
  });
});
