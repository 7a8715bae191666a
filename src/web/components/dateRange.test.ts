import { describe, expect, it } from 'vitest';
import { activeFiltersText, dateRangeError, noDates } from './dateRange.ts';

describe('a date range', () => {
  it('refuses an end date before the start date', () => {
    expect(dateRangeError({ from: '2026-11-02', to: '2026-11-01' })).toBe(
      'End Date must be on or after Start Date',
    );
    expect(dateRangeError({ from: '2026-11-01', to: '2026-11-01' })).toBeNull();
    expect(dateRangeError({ from: '', to: '2026-11-01' })).toBeNull();
  });

  it('refuses a date the server would refuse, naming the input', () => {
    expect(dateRangeError({ from: '', to: '9999-12-31' })).toBe(
      'End Date must be a date from 1900-01-01 to 9999-12-30',
    );
    expect(dateRangeError({ from: '0202-01-01', to: '2026-11-01' })).toBe(
      'Start Date must be a date from 1900-01-01 to 9999-12-30',
    );
    expect(dateRangeError({ from: '275760-01-01', to: '' })).toBe(
      'Start Date must be a date from 1900-01-01 to 9999-12-30',
    );
  });

  it('lists the applied dates', () => {
    expect(activeFiltersText(noDates)).toBeNull();
    expect(activeFiltersText({ from: '2026-11-01', to: '' })).toBe(
      'Active filters: Start Date 2026-11-01',
    );
    expect(activeFiltersText({ from: '2026-11-01', to: '2026-11-30' })).toBe(
      'Active filters: Start Date 2026-11-01, End Date 2026-11-30',
    );
  });
});
