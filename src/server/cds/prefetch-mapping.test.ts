import { describe, expect, it } from 'vitest';
import { CONDITIONS } from '../../engine/index.ts';
import { CONDITION_CODES, CURRENT_SMOKER_CODES, NON_SMOKER_CODES } from './codes.ts';
import {
  conditionsCoded,
  icd10InCategories,
  mapPrefetch,
  patientRecordCandidate,
  readRecord,
  type PrefetchData,
} from './prefetch-mapping.ts';

const today = '2026-11-22';
const none: PrefetchData = {
  patient: null,
  observations: null,
  conditions: null,
  familyHistory: null,
};
const bundle = (...resources: unknown[]) => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: resources.map((resource) => ({ resource })),
});
const observation = (code: string, extra: Record<string, unknown>) => ({
  resourceType: 'Observation',
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code }] },
  subject: { reference: 'Patient/p1' },
  ...extra,
});
const height = (value: number, unit: string, date = '2026-01-01', status = 'final') =>
  observation('8302-2', { status, effectiveDateTime: date, valueQuantity: { value, code: unit } });
const weight = (value: number, unit: string, date = '2026-01-01') =>
  observation('29463-7', { effectiveDateTime: date, valueQuantity: { value, unit } });
const smoking = (code: string, date: string) =>
  observation('72166-2', {
    effectiveDateTime: date,
    valueCodeableConcept: { coding: [{ system: 'http://snomed.info/sct', code }] },
  });
const coded = (system: string, code: string) => ({ coding: [{ system, code }] });
const snomed = (code: string) => coded('http://snomed.info/sct', code);
const icd10 = (code: string) => coded('http://hl7.org/fhir/sid/icd-10', code);

const demographicsOf = (...observations: unknown[]) =>
  mapPrefetch({ ...none, observations: bundle(...observations) }, 'p1', today).demographics;

describe('mapping a CDS call to the engine input', () => {
  it('converts heights and weights to cm and kg, taking the newest readable in range', () => {
    expect(demographicsOf(height(1.8, 'm'), weight(176, '[lb_av]'))).toEqual({
      height: 180,
      weight: 79.8,
    });
    expect(demographicsOf(height(1655, 'mm'), weight(70500, 'g'))).toEqual({
      height: 165.5,
      weight: 70.5,
    });
    expect(demographicsOf(height(65, '[in_i]'))).toEqual({ height: 165.1 });
    expect(
      demographicsOf(
        height(150, 'cm', '2020-01-01'),
        height(170, 'cm', '2026-06-01'),
        height(190, 'cm', '2026-09-01', 'entered-in-error'),
        height(5.6, 'ft', '2026-10-01'),
        height(3, 'm', '2026-11-01'),
      ),
    ).toEqual({ height: 170 });
    // Another patient's reading is passed by.
    expect(demographicsOf({ ...height(170, 'cm'), subject: { reference: 'Patient/p2' } })).toEqual(
      {},
    );
    expect(
      demographicsOf({
        ...height(170, 'cm'),
        subject: { reference: 'https://ehr/fhir/Patient/p1' },
      }),
    ).toEqual({
      height: 170,
    });
  });

  it('reads smoking from the newest status: current smokers true, never and ex false, else unanswered', () => {
    const smokingOf = (...observations: unknown[]) =>
      mapPrefetch({ ...none, observations: bundle(...observations) }, 'p1', today).riskFactors
        ?.smoking;
    for (const { code } of CURRENT_SMOKER_CODES)
      expect(smokingOf(smoking(code, '2026-01-01')), code).toBe(true);
    for (const { code } of NON_SMOKER_CODES)
      expect(smokingOf(smoking(code, '2026-01-01')), code).toBe(false);
    expect(smokingOf(smoking('266927001', '2026-01-01'))).toBeUndefined();
    expect(smokingOf(smoking('77176002', '2020-01-01'), smoking('8517006', '2026-01-01'))).toBe(
      false,
    );
    expect(
      smokingOf(smoking('8517006', '2020-01-01'), smoking('266927001', '2026-01-01')),
    ).toBeUndefined();
  });

  it('matches ICD-10 codes by category, with or without the dot', () => {
    expect(icd10InCategories('E11.9', 'E11')).toBe(true);
    expect(icd10InCategories('e119', 'E11')).toBe(true);
    expect(icd10InCategories('E10.9', 'E11')).toBe(false);
    expect(['B20', 'B22.7', 'B24'].map((code) => icd10InCategories(code, 'B20-B24'))).toEqual([
      true,
      true,
      true,
    ]);
    expect(['B19.9', 'B25', 'C20'].map((code) => icd10InCategories(code, 'B20-B24'))).toEqual([
      false,
      false,
      false,
    ]);
    expect(['I10', 'I15.0', 'I16'].map((code) => icd10InCategories(code, 'I10-I15'))).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('knows every listed SNOMED CT code as its condition, and ICD-10 codes only from ICD-10 systems', () => {
    for (const condition of CONDITIONS) {
      for (const { code } of CONDITION_CODES[condition].snomed) {
        expect([...conditionsCoded(snomed(code))], code).toEqual([condition]);
      }
    }
    expect([...conditionsCoded(icd10('A17.0'))]).toEqual(['TB']);
    expect([...conditionsCoded(coded('http://hl7.org/fhir/sid/icd-10-cm', 'J45.909'))]).toEqual([
      'Asthma',
    ]);
    expect([...conditionsCoded(icd10('E78.5'))]).toEqual(['Hyperlipidaemia']);
    expect([...conditionsCoded(coded('http://example.org/local', 'E11'))]).toEqual([]);
    expect([...conditionsCoded(snomed('46635009'))]).toEqual([]); // type 1 diabetes
  });

  it('counts only active, confirmed conditions of this patient as diagnosed', () => {
    const condition = (code: object, extra: Record<string, unknown> = {}) => ({
      resourceType: 'Condition',
      code,
      subject: { reference: 'Patient/p1' },
      ...extra,
    });
    const status = (code: string) => ({ coding: [{ code }] });
    const management = mapPrefetch(
      {
        ...none,
        conditions: bundle(
          condition(icd10('I10'), { clinicalStatus: status('active') }),
          condition(snomed('195967001'), { clinicalStatus: status('resolved') }),
          condition(snomed('86406008'), { verificationStatus: status('refuted') }),
          condition(snomed('56717001'), { verificationStatus: status('provisional') }),
          condition(snomed('44054006'), { subject: { reference: 'Patient/p2' } }),
          condition(snomed('55822004'), { clinicalStatus: status('recurrence') }),
          { resourceType: 'Condition', code: 'not a CodeableConcept' },
        ),
      },
      'p1',
      today,
    ).management;
    expect(management).toEqual({
      Hypertension: { diagnosed: true },
      Hyperlipidaemia: { diagnosed: true },
    });
  });

  it('reads a family history of the four conditions the wizard asks about', () => {
    const history = (status: string, ...codes: object[]) => ({
      resourceType: 'FamilyMemberHistory',
      status,
      patient: { reference: 'Patient/p1' },
      condition: codes.map((code) => ({ code })),
    });
    const { riskFactors } = mapPrefetch(
      {
        ...none,
        familyHistory: bundle(
          history('completed', snomed('81531005'), icd10('I11.9'), snomed('56717001')),
          history('entered-in-error', snomed('195967001')),
          history('partial', icd10('E78.0')),
        ),
      },
      'p1',
      today,
    );
    expect(riskFactors).toEqual({
      familyHistory: { DM2: true, Hypertension: true, Hyperlipidaemia: true },
    });
  });

  it('reads age on the clinic day and gender male or female only', () => {
    const patient = (extra: Record<string, unknown>) =>
      mapPrefetch(
        { ...none, patient: { resourceType: 'Patient', id: 'p1', ...extra } },
        'p1',
        today,
      ).demographics;
    expect(patient({ birthDate: '1960-11-22', gender: 'male' })).toEqual({
      age: 66,
      gender: 'Male',
    });
    expect(patient({ birthDate: '1960-11-23', gender: 'female' })).toEqual({
      age: 65,
      gender: 'Female',
    });
    expect(patient({ birthDate: '1960', gender: 'other' })).toEqual({});
    expect(patient({ birthDate: '2030-01-01', gender: 'unknown' })).toEqual({});
    // A Patient that is not the one in context is not read.
    expect(
      mapPrefetch(
        { ...none, patient: { resourceType: 'Patient', id: 'p2', gender: 'male' } },
        'p1',
        today,
      ).demographics,
    ).toEqual({});
    // Symptoms are never answered.
    expect(mapPrefetch(none, 'p1', today)).toEqual({ demographics: {}, riskFactors: {} });
  });

  it("takes the patient number from the clinic's identifier system, else the first identifier", () => {
    const system = 'urn:triage:patient-number';
    const candidate = (identifier: unknown[], extra: Record<string, unknown> = {}) =>
      patientRecordCandidate(
        { resourceType: 'Patient', identifier, ...extra } as never,
        system,
        today,
      );
    expect(
      candidate(
        [
          { system: 'urn:ehr', value: 'EHR-1' },
          { system, value: 'MRN-9' },
        ],
        {
          name: [
            { use: 'old', text: 'Old Name' },
            { given: ['Ada', 'B.'], family: 'Mwale' },
          ],
          birthDate: '1970-01-02',
          gender: 'female',
        },
      ),
    ).toEqual({ number: 'MRN-9', name: 'Ada B. Mwale', birthDate: '1970-01-02', gender: 'Female' });
    expect(candidate([{ system: 'urn:ehr' }, { system: 'urn:ehr', value: 'EHR/1' }])?.number).toBe(
      'EHR/1',
    );
    expect(candidate([{ system, value: 'has spaces' }])).toBeUndefined();
    expect(candidate([])).toBeUndefined();
  });
});

describe('the record data a score was made from', () => {
  it('names the values read, with the day the record says each was measured', () => {
    const { input, used } = readRecord(
      {
        patient: { resourceType: 'Patient', id: 'p1', gender: 'female', birthDate: '1980-03-04' },
        observations: bundle(
          height(1.62, 'm', '2026-10-01T01:30:00+03:00'),
          height(150, 'cm', '2020-01-01'),
          weight(140, 'lb', '2026-09'),
          smoking('8517006', '2025-12-31T23:00:00Z'),
          observation('29463-7', { valueQuantity: { value: 60, code: 'kg' } }),
        ),
        conditions: bundle({
          resourceType: 'Condition',
          code: coded('http://hl7.org/fhir/sid/icd-10', 'I10'),
        }),
        familyHistory: bundle({
          resourceType: 'FamilyMemberHistory',
          condition: [{ code: coded('http://snomed.info/sct', '195967001') }],
        }),
      },
      'p1',
      today,
    );
    expect(used).toEqual({
      birthDate: '1980-03-04',
      age: 46,
      gender: 'Female',
      // The day as the record wrote it, not as UTC would make it.
      height: { value: 162, date: '2026-10-01' },
      weight: { value: 63.5, date: '2026-09' },
      smoking: { value: false, date: '2025-12-31' },
      diagnosed: ['Hypertension'],
      familyHistory: ['Asthma'],
    });
    expect(input).toEqual({
      demographics: { age: 46, gender: 'Female', height: 162, weight: 63.5 },
      riskFactors: { smoking: false, familyHistory: { Asthma: true } },
      management: { Hypertension: { diagnosed: true } },
    });
  });

  it('names nothing the record does not hold', () => {
    expect(readRecord(none, 'p1', today).used).toEqual({
      birthDate: undefined,
      age: undefined,
      gender: undefined,
      height: undefined,
      weight: undefined,
      smoking: undefined,
      diagnosed: [],
      familyHistory: [],
    });
  });
});
