/** Below this many paired ratings Cohen's kappa says too little to show ('not enough reviews'). */
export const kappaMinimumPairs = 10;

/**
 * Cohen's kappa of a square confusion matrix: `matrix[i][j]` counts the cases the first rater
 * (the rules) put in category i and the second (the doctor) in category j.
 *
 *   kappa = (po - pe) / (1 - pe)
 *
 * where po is the share of cases on the diagonal (observed agreement) and pe the agreement
 * expected by chance, the sum over categories of the product of the two raters' shares.
 * Null below `minimumPairs` cases, and when pe is 1 (both raters put every case in one and the
 * same category: kappa is then 0 / 0).
 */
export function cohensKappa(
  matrix: readonly (readonly number[])[],
  minimumPairs = kappaMinimumPairs,
): number | null {
  const size = matrix.length;
  let total = 0;
  let agreed = 0;
  const rowTotals = new Array<number>(size).fill(0);
  const columnTotals = new Array<number>(size).fill(0);
  matrix.forEach((row, i) => {
    if (row.length !== size) throw new Error('cohensKappa: the matrix must be square');
    row.forEach((count, j) => {
      total += count;
      rowTotals[i] = (rowTotals[i] ?? 0) + count;
      columnTotals[j] = (columnTotals[j] ?? 0) + count;
      if (i === j) agreed += count;
    });
  });
  if (total < minimumPairs || total === 0) return null;
  const observed = agreed / total;
  let expected = 0;
  for (let i = 0; i < size; i++) {
    expected += ((rowTotals[i] ?? 0) / total) * ((columnTotals[i] ?? 0) / total);
  }
  if (expected >= 1) return null;
  return (observed - expected) / (1 - expected);
}
