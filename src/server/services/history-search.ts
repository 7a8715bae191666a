import type { AssessmentFilter } from '../db/repositories/assessments.ts';

/**
 * Turns what a user types in the history search into a filter (spec section 5: the id, code,
 * gender, age, date text, complete/incomplete and signed off/not signed off, case-insensitive).
 * Every term must match. The status phrases and the genders are matched as whole words, so that
 * 'signed off' does not also find 'not signed off', nor 'male' find 'female'.
 */
export function parseHistorySearch(query: string | undefined): AssessmentFilter {
  const filter: AssessmentFilter = { textTerms: [], numberTerms: [] };
  let rest = ` ${(query ?? '').toLowerCase().replaceAll(/\s+/g, ' ')} `;

  const phrases: Array<[RegExp, (f: AssessmentFilter) => void]> = [
    [/ not signed[ -]?off /, (f) => (f.signedOff = false)],
    [/ signed[ -]?off /, (f) => (f.signedOff = true)],
    [/ incomplete /, (f) => (f.complete = false)],
    [/ complete /, (f) => (f.complete = true)],
    [/ female /, (f) => (f.gender = 'Female')],
    [/ male /, (f) => (f.gender = 'Male')],
  ];
  for (const [pattern, apply] of phrases) {
    if (pattern.test(rest)) {
      apply(filter);
      rest = rest.replace(pattern, ' ');
    }
  }

  for (const term of rest.split(' ').filter((t) => t !== '')) {
    if (/^\d{1,3}$/.test(term)) filter.numberTerms.push(term);
    else filter.textTerms.push(term);
  }
  return filter;
}
