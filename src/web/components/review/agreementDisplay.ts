import { kappaMinimumPairs } from '../../../shared/kappa.ts';

/** The reviews a matrix counts: those that give a doctor status. */
export function matrixTotal(matrix: readonly (readonly number[])[]): number {
  return matrix.reduce((sum, row) => sum + row.reduce((rowSum, cell) => rowSum + cell, 0), 0);
}

/** Landis and Koch's words for a kappa, as clinicians usually read one. */
export function kappaStrength(kappa: number): string {
  if (kappa < 0) return 'poor';
  if (kappa <= 0.2) return 'slight';
  if (kappa <= 0.4) return 'fair';
  if (kappa <= 0.6) return 'moderate';
  if (kappa <= 0.8) return 'substantial';
  return 'almost perfect';
}

/**
 * Kappa as the panel shows it: two decimals and its strength, 'Not enough reviews' below the
 * minimum (with how many there are), and a note when every review is in one status.
 */
export function kappaText(kappa: number | null, matrix: readonly (readonly number[])[]): string {
  return kappaOfPairsText(kappa, matrixTotal(matrix));
}

/** Kappa as `kappaText` shows it, given the number of paired ratings it was computed over. */
export function kappaOfPairsText(kappa: number | null, pairs: number): string {
  if (pairs < kappaMinimumPairs) return `Not enough reviews (${pairs} of ${kappaMinimumPairs})`;
  if (kappa === null) return 'Not defined: one status only';
  return `${kappaFigure(kappa)} (${kappaStrength(kappa)})`;
}

function kappaFigure(kappa: number): string {
  // −0.00 reads oddly; a kappa that rounds to zero is shown as 0.00.
  const shown = Math.abs(kappa) < 0.005 ? 0 : kappa;
  return shown.toFixed(2).replace('-', '−');
}

/** What the bands of `kappaStrength` are, said once beside the figures. */
export const kappaBands =
  'Kappa measures agreement beyond chance: below 0 is poor, 0–0.20 slight, 0.21–0.40 fair, 0.41–0.60 moderate, 0.61–0.80 substantial, 0.81–1 almost perfect.';

/**
 * One plain sentence on a condition's kappa: 'Kappa measures agreement beyond chance: 0.64 means
 * substantial.', or why there is no figure.
 */
export function kappaSentence(
  kappa: number | null,
  matrix: readonly (readonly number[])[],
): string {
  if (kappa === null || matrixTotal(matrix) < kappaMinimumPairs) {
    return `Kappa: ${kappaText(kappa, matrix)}`;
  }
  return `Kappa measures agreement beyond chance: ${kappaFigure(kappa)} means ${kappaStrength(kappa)}.`;
}

/** The calendar day a review was finalized, in the clinic's zone when given (YYYY-MM-DD). */
export function reviewDay(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(iso));
}
