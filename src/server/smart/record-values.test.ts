import { describe, expect, it } from 'vitest';
import type { PrefetchData } from '../cds/prefetch-mapping.ts';
import { recordValues } from './record-values.ts';

const today = '2026-11-29';
const bundle = (...resources: unknown[]) => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: resources.map((resource) => ({ resource })),
});
const observation = (code: string, date: string | undefined, extra: Record<string, unknown>) => ({
  resourceType: 'Observation',
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code }] },
  subject: { reference: 'Patient/p1' },
  ...(date === undefined ? {} : { effectiveDateTime: date }),
  ...extra,
});
const snomed = (code: string) => ({ coding: [{ system: 'http://snomed.info/sct', code }] });

const record: PrefetchData = {
  patient: { resourceType: 'Patient', id: 'p1', gender: 'female', birthDate: '1968-05-14' },
  observations: bundle(
    observation('8302-2', '2026-10-02', { valueQuantity: { value: 162, code: 'cm' } }),
    observation('29463-7', '2025-01-10', { valueQuantity: { value: 80, code: 'kg' } }),
    observation('72166-2', undefined, { valueCodeableConcept: snomed('266919005') }),
  ),
  conditions: bundle({
    resourceType: 'Condition',
    clinicalStatus: {
      coding: [
        { system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' },
      ],
    },
    code: snomed('59621000'),
    subject: { reference: 'Patient/p1' },
  }),
  familyHistory: bundle({
    resourceType: 'FamilyMemberHistory',
    status: 'completed',
    patient: { reference: 'Patient/p1' },
    condition: [{ code: snomed('44054006') }],
  }),
};

describe('the values a launch takes from the record', () => {
  it('fills recent values and shows, unfilled, those older than the limit or undated', () => {
    expect(recordValues(record, 'p1', today, 365)).toEqual([
      { field: 'age', value: 58, date: null, filled: true },
      { field: 'gender', value: 'Female', date: null, filled: true },
      { field: 'height', value: 162, date: '2026-10-02', filled: true },
      { field: 'weight', value: 80, date: '2025-01-10', filled: false },
      { field: 'smoking', value: false, date: null, filled: false },
      { field: 'familyHistory', condition: 'DM2', value: true, date: null, filled: true },
      { field: 'diagnosed', condition: 'Hypertension', value: true, date: null, filled: true },
    ]);
  });

  it('takes the limit from the setting: a longer one fills the older weight', () => {
    const weight = recordValues(record, 'p1', today, 730).find((v) => v.field === 'weight');
    expect(weight).toMatchObject({ value: 80, filled: true });
    // The limit's last day still counts; the day before it does not.
    const onTheDay = recordValues(record, 'p1', '2026-01-10', 365).find(
      (v) => v.field === 'weight',
    );
    expect(onTheDay?.filled).toBe(true);
    const dayAfter = recordValues(record, 'p1', '2026-01-11', 365).find(
      (v) => v.field === 'weight',
    );
    expect(dayAfter?.filled).toBe(false);
  });

  it('says nothing of what the record does not hold', () => {
    expect(
      recordValues(
        { patient: null, observations: null, conditions: null, familyHistory: null },
        'p1',
        today,
        365,
      ),
    ).toEqual([]);
  });
});
