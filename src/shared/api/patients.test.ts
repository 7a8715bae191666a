import { describe, expect, it } from 'vitest';
import { ageOn, birthDateProblem, patientBodySchema } from './patients.ts';

describe('patient record rules', () => {
  it('count whole years to a day, a 29 February birthday reached on 1 March', () => {
    expect(ageOn('1964-03-02', '2026-03-01')).toBe(61);
    expect(ageOn('1964-03-02', '2026-03-02')).toBe(62);
    expect(ageOn('2000-02-29', '2025-02-28')).toBe(24);
    expect(ageOn('2000-02-29', '2025-03-01')).toBe(25);
    expect(ageOn('2026-11-22', '2026-11-22')).toBe(0);
  });

  it('take a date of birth from today back to exactly 120 years', () => {
    expect(birthDateProblem('2026-11-22', '2026-11-22')).toBeUndefined();
    expect(birthDateProblem('2026-11-23', '2026-11-22')).toMatch(/future/);
    expect(birthDateProblem('1906-11-22', '2026-11-22')).toBeUndefined();
    expect(birthDateProblem('1906-11-21', '2026-11-22')).toMatch(/120 years/);
  });

  it('take numbers of 1 to 32 letters, digits, dashes and slashes, trimmed', () => {
    expect(patientBodySchema.parse({ number: ' MRN-1/a ' }).number).toBe('MRN-1/a');
    for (const number of ['', 'x'.repeat(33), 'MRN 1', 'MRN_1', 'MRN.1', 'Müller']) {
      expect(patientBodySchema.safeParse({ number }).success, number).toBe(false);
    }
  });
});
