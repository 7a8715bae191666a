import { describe, expect, it } from 'vitest';
import { parseHistorySearch } from './history-search.ts';

describe('history search terms', () => {
  it.each([
    ['', { textTerms: [], numberTerms: [] }],
    ['signed off', { signedOff: true }],
    ['Not Signed Off', { signedOff: false }],
    ['incomplete', { complete: false }],
    ['complete', { complete: true }],
    ['male', { gender: 'Male' }],
    ['FEMALE', { gender: 'Female' }],
    ['45', { numberTerms: ['45'] }],
    ['ASS-MHX3', { textTerms: ['ass-mhx3'] }],
    ['2026-11-22', { textTerms: ['2026-11-22'] }],
    ['female 45 signed off', { gender: 'Female', numberTerms: ['45'], signedOff: true }],
  ])('reads %j', (query, expected) => {
    expect(parseHistorySearch(query)).toMatchObject(expected);
  });

  it('does not read "signed off" inside "not signed off", nor "male" inside "female"', () => {
    const filter = parseHistorySearch('not signed off female');
    expect(filter.signedOff).toBe(false);
    expect(filter.gender).toBe('Female');
    expect(filter.textTerms).toEqual([]);
  });
});
