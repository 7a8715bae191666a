import { describe, expect, it } from 'vitest';
import { cohensKappa } from './kappa.ts';

describe("Cohen's kappa", () => {
  it('matches a hand-worked example', () => {
    // Rules (rows) against doctor (columns), in the order FALSE, MAYBE, TRUE, DIAGNOSED:
    const matrix = [
      [6, 1, 0, 0], // rules FALSE: 7
      [1, 3, 1, 0], // rules MAYBE: 5
      [0, 1, 4, 0], // rules TRUE: 5
      [0, 0, 0, 3], // rules DIAGNOSED: 3
    ];
    // 20 reviews; the doctors' columns also sum to 7, 5, 5 and 3.
    // Observed agreement po = (6 + 3 + 4 + 3) / 20 = 16 / 20 = 0.8.
    // Chance agreement pe = (7·7 + 5·5 + 5·5 + 3·3) / 20² = 108 / 400 = 0.27.
    // kappa = (0.8 − 0.27) / (1 − 0.27) = 0.53 / 0.73 = 0.7260…
    expect(cohensKappa(matrix)).toBeCloseTo(0.53 / 0.73, 12);
    expect(cohensKappa(matrix)).toBeCloseTo(0.726027, 6);
  });

  it('is 1 for complete agreement and below 0 when the doctors disagree more than chance', () => {
    expect(
      cohensKappa([
        [5, 0],
        [0, 5],
      ]),
    ).toBe(1);
    // po = 0, pe = 0.5·0.5 + 0.5·0.5 = 0.5: kappa = (0 − 0.5) / 0.5 = −1.
    expect(
      cohensKappa([
        [0, 5],
        [5, 0],
      ]),
    ).toBe(-1);
  });

  it('says nothing below 10 reviews, or when every review is in one status on both sides', () => {
    expect(
      cohensKappa([
        [5, 0],
        [0, 4],
      ]),
    ).toBeNull();
    expect(
      cohensKappa([
        [0, 0],
        [0, 0],
      ]),
    ).toBeNull();
    // pe = 1: kappa would be 0 / 0.
    expect(
      cohensKappa([
        [12, 0],
        [0, 0],
      ]),
    ).toBeNull();
  });
});
