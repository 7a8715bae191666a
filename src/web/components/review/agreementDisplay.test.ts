import { describe, expect, it } from 'vitest';
import {
  kappaSentence,
  kappaStrength,
  kappaText,
  matrixTotal,
  reviewDay,
} from './agreementDisplay.ts';

const tenReviews = [
  [4, 0, 1, 0],
  [0, 0, 0, 0],
  [0, 1, 4, 0],
  [0, 0, 0, 0],
];

describe('the Doctor Agreement display', () => {
  it('counts the reviews of the matrix', () => {
    expect(matrixTotal(tenReviews)).toBe(10);
    expect(matrixTotal([])).toBe(0);
  });

  it('shows kappa to two decimals with its strength', () => {
    expect(kappaText(0.35 / 0.55, tenReviews)).toBe('0.64 (substantial)');
    expect(kappaText(-0.25, tenReviews)).toBe('−0.25 (poor)');
    expect(kappaText(-0.001, tenReviews)).toBe('0.00 (poor)');
    expect(kappaText(1, tenReviews)).toBe('1.00 (almost perfect)');
  });

  it('explains a kappa in one plain sentence, or says why there is none', () => {
    expect(kappaSentence(0.61, tenReviews)).toBe(
      'Kappa measures agreement beyond chance: 0.61 means substantial.',
    );
    expect(kappaSentence(-0.25, tenReviews)).toBe(
      'Kappa measures agreement beyond chance: −0.25 means poor.',
    );
    expect(kappaSentence(0.9, [[9]])).toBe('Kappa: Not enough reviews (9 of 10)');
    expect(kappaSentence(null, [[12]])).toBe('Kappa: Not defined: one status only');
  });

  it("says 'not enough reviews' below 10, and when kappa is not defined", () => {
    expect(kappaText(null, [[9]])).toBe('Not enough reviews (9 of 10)');
    expect(kappaText(null, [])).toBe('Not enough reviews (0 of 10)');
    expect(
      kappaText(null, [
        [12, 0],
        [0, 0],
      ]),
    ).toBe('Not defined: one status only');
  });

  it('names the strength of agreement by Landis and Koch', () => {
    expect([0, 0.2, 0.21, 0.4, 0.5, 0.6, 0.7, 0.8, 0.81].map(kappaStrength)).toEqual([
      'slight',
      'slight',
      'fair',
      'fair',
      'moderate',
      'moderate',
      'substantial',
      'substantial',
      'almost perfect',
    ]);
  });

  it('gives the day a review was finalized in the zone asked for', () => {
    expect(reviewDay('2026-11-22T23:30:00.000Z', 'UTC')).toBe('2026-11-22');
    expect(reviewDay('2026-11-22T23:30:00.000Z', 'Africa/Johannesburg')).toBe('2026-11-23');
  });
});
