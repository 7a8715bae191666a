import { describe, expect, it } from 'vitest';
import { formatBmi, formatComorbidity, formatScore } from './display.ts';

describe('display precision (spec 9.1)', () => {
  it('shows scores to 4 decimals, BMI to 1 and comorbidity to 2', () => {
    expect(formatScore(8.3625)).toBe('8.3625');
    expect(formatScore(1.2000000000000002)).toBe('1.2000');
    expect(formatBmi(29.384756657483933)).toBe('29.4');
    expect(formatComorbidity(1)).toBe('1.00');
  });
});
