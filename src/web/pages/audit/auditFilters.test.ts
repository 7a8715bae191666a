import { describe, expect, it } from 'vitest';
import { auditActionLabel } from '../../format.ts';
import {
  auditDateErrors,
  auditFiltersFromForm,
  auditFiltersFromSearch,
  auditSearchFromFilters,
} from './auditFilters.ts';

describe('audit filters', () => {
  it('reads the filters the address holds and drops values the API would refuse', () => {
    const search = new URLSearchParams(
      'user=%20ann%20&action=login_failed&from=2026-01-02&to=yesterday&limit=9',
    );
    expect(auditFiltersFromSearch(search)).toEqual({
      user: 'ann',
      action: 'login_failed',
      from: '2026-01-02',
    });
    expect(auditFiltersFromSearch(new URLSearchParams('action=dance'))).toEqual({});
  });

  it('drops dates from the address that are not days the API takes', () => {
    const search = new URLSearchParams('from=2026-02-30&to=9999-12-31');
    expect(auditFiltersFromSearch(search)).toEqual({});
  });

  it('says which date of the form the API would refuse', () => {
    expect(auditDateErrors({ from: '1899-12-31', to: '9999-12-31' })).toEqual({
      from: 'From must be a date from 1900-01-01 to 9999-12-30',
      to: 'To must be a date from 1900-01-01 to 9999-12-30',
    });
    expect(auditDateErrors({ from: '', to: '2026-03-04' })).toEqual({ from: null, to: null });
  });

  it('treats empty form values as no filter', () => {
    expect(auditFiltersFromForm({ user: ' ', action: '', from: '', to: '2026-03-04' })).toEqual({
      to: '2026-03-04',
    });
  });

  it('writes filters back into the address in a stable order', () => {
    expect(
      auditSearchFromFilters({ to: '2026-03-04', action: 'logout', user: 'ann' }).toString(),
    ).toBe('user=ann&action=logout&to=2026-03-04');
  });
});

describe('auditActionLabel', () => {
  it('reads an action code as words', () => {
    expect(auditActionLabel('login_failed')).toBe('Login failed');
    expect(auditActionLabel('cds_call')).toBe('CDS call');
    expect(auditActionLabel('api_token_create')).toBe('API token create');
    expect(auditActionLabel('fhir_read')).toBe('FHIR read');
    expect(auditActionLabel('assessment_sign_off')).toBe('Assessment sign off');
  });
});
