import { describe, expect, it } from 'vitest';
import { patientSearchDetails, patientSearchStatus } from './patientSearch.ts';

describe('the dashboard patient search texts', () => {
  it('say how many patients match, and when only some are shown', () => {
    expect(patientSearchStatus('smi', 0, 0)).toBe("No patients match 'smi'");
    expect(patientSearchStatus('smi', 1, 1)).toBe('1 patient matches');
    expect(patientSearchStatus('smi', 3, 3)).toBe('3 patients match');
    expect(patientSearchStatus('p', 8, 23)).toBe(
      'Showing 8 of 23 patients; type more of the number or name to narrow them',
    );
  });

  it('give the name and age, or say they are not recorded', () => {
    expect(patientSearchDetails({ name: 'Ada Lovelace', age: 36 })).toBe('Ada Lovelace · 36 years');
    expect(patientSearchDetails({ name: 'Baby Doe', age: 1 })).toBe('Baby Doe · 1 year');
    expect(patientSearchDetails({ name: null, age: null })).toBe(
      'Name not recorded · age not recorded',
    );
  });
});
