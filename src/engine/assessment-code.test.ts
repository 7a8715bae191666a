import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateAssessmentCode, isAssessmentCode } from './index.ts';

/** A source of randomness that returns the given values in turn. */
function sequence(...values: number[]): () => number {
  let next = 0;
  return () => values[next++ % values.length] ?? 0;
}

describe('assessment code (spec 3.4)', () => {
  it('is ASS-{time in base 36}-{4 base-36 characters}, upper case', () => {
    // 1700000000000 ms is 'loyw3v28' in base 36; 0, 10/36, 35/36 and 0.5 pick 0, A, Z and I.
    const code = generateAssessmentCode(1_700_000_000_000, sequence(0, 10 / 36, 35 / 36, 0.5));
    expect(code).toBe('ASS-LOYW3V28-0AZI');
  });

  it('draws each random character from the whole base-36 alphabet', () => {
    const seen = new Set<string>();
    for (let digit = 0; digit < 36; digit++) {
      seen.add(generateAssessmentCode(0, () => (digit + 0.5) / 36).slice(-1));
    }
    expect(seen.size).toBe(36);
  });

  it('refuses a time that is negative or not whole, and randomness outside [0, 1)', () => {
    expect(() => generateAssessmentCode(-1, Math.random)).toThrow(RangeError);
    expect(() => generateAssessmentCode(1.5, Math.random)).toThrow(RangeError);
    expect(() => generateAssessmentCode(0, () => 1)).toThrow(RangeError);
    expect(() => generateAssessmentCode(0, () => Number.NaN)).toThrow(RangeError);
  });

  it('every generated code is valid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 4,
          maxLength: 4,
        }),
        (nowMs, randoms) => isAssessmentCode(generateAssessmentCode(nowMs, sequence(...randoms))),
      ),
    );
  });

  it.each([
    'ass-LOZN7SW0-0AZI',
    'ASS-LOZN7SW0-0AZ',
    'ASS-LOZN7SW0-0AZIX',
    'ASS--0AZI',
    'ASS-LOZ_7SW0-0AZI',
    ' ASS-A-0AZI',
  ])('rejects %j', (code) => {
    expect(isAssessmentCode(code)).toBe(false);
  });
});
