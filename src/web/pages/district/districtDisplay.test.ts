import { describe, expect, it } from 'vitest';
import type { OrgUnitSummaryRow } from '../../../shared/api/org-units.ts';
import { agreementText, districtPath, rowLabel, unitDashboardPath } from './districtDisplay.ts';

const row = (ownRecordsOnly: boolean): OrgUnitSummaryRow => ({
  unit: { id: 'u1', code: 'D1', name: 'North', hasChildren: true, closed: false },
  ownRecordsOnly,
  assessments: 0,
  conditions: [],
  awaitingReview: 0,
  followUpOverdue: 0,
  agreementShare: null,
});

describe('the District page texts', () => {
  it('keeps the days in the address of each unit', () => {
    expect(districtPath(undefined, { from: '', to: '' })).toBe('/district');
    expect(districtPath('a b', { from: '2026-11-01', to: '' })).toBe(
      '/district/a%20b?from=2026-11-01',
    );
    expect(districtPath('u1', { from: '2026-11-01', to: '2026-11-30' })).toBe(
      '/district/u1?from=2026-11-01&to=2026-11-30',
    );
    expect(unitDashboardPath('u&1')).toBe('/?unit=u%261');
  });

  it('says the agreement as a percentage, and a row of own records as such', () => {
    expect(agreementText(null)).toBe('—');
    expect(agreementText(5 / 6)).toBe('83%');
    expect(rowLabel(row(false))).toBe('North (D1)');
    expect(rowLabel(row(true))).toBe('North (D1), its own records');
  });
});
