import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONDITION_DISPLAY_NAMES, CONDITIONS, DEMOGRAPHIC_FIELDS, RISK_STATUSES } from './index.ts';
import { interpretMissingPrerequisite, interpretStatus } from './interpretation.ts';

describe('interpretation sentences, kept once made', () => {
  it('each call gives the sentence of its own arguments, whatever came before', () => {
    // Mostly small counts, so that calls share all but one argument.
    const count = fc.oneof(
      { weight: 8, arbitrary: fc.nat({ max: 2 }) },
      fc.nat({ max: 70 }),
      fc.double({ min: 0, max: 70, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom(...CONDITIONS),
            fc.constantFrom(...RISK_STATUSES),
            count,
            count,
            fc.array(fc.constantFrom(...DEMOGRAPHIC_FIELDS), { maxLength: 5 }),
          ),
          { minLength: 1, maxLength: 50 },
        ),
        (calls) => {
          for (const [condition, status, factorCount, threshold, missing] of calls) {
            const sentence = interpretStatus(condition, status, factorCount, threshold, missing);
            expect(sentence).toContain(CONDITION_DISPLAY_NAMES[condition]);
            if (status === 'DIAGNOSED') continue;
            expect(sentence).toContain(` ${factorCount} factor`);
            expect(sentence).toContain(`threshold of ${threshold}`);
            if (status === 'UNKNOWN') {
              const words = missing.length <= 1 ? missing.join('') : missing.join(', ');
              const last = missing.at(-1) ?? '';
              expect(sentence).toContain(
                missing.length <= 1 ? `: ${words} not recorded` : ` and ${last} not recorded`,
              );
              expect(sentence).toContain(`: ${missing.slice(0, -1).join(', ')}`);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a missing prerequisite names its own symptoms', () => {
    expect(interpretMissingPrerequisite('Asthma', ['Cough', 'Wheezing'])).toBe(
      'Low risk of Asthma: no cough or wheezing reported, and further assessment requires one of them.',
    );
    expect(interpretMissingPrerequisite('Asthma', ['Cough\nWheezing'])).toBe(
      'Low risk of Asthma: no cough\nwheezing reported, and further assessment requires one of them.',
    );
    expect(interpretMissingPrerequisite('Asthma', ['Cough', 'Wheezing'])).toContain('or wheezing');
  });
});
