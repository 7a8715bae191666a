import { describe, expect, it } from 'vitest';
import type { Patient } from '../../shared/api/patients.ts';
import type { RecordValue, SmartLaunch } from '../../shared/api/smart-launch.ts';
import { emptyForm, type AssessmentForm } from './form.ts';
import {
  formatRecordDate,
  formFromLaunch,
  formWithRecordValues,
  recordLaunchOf,
  recordNote,
  recordNotes,
  unreadLines,
  type RecordLaunch,
} from './launch.ts';

const patient: Patient = {
  id: 'p-1',
  number: 'SMART-1001',
  name: 'Thandi Mokoena',
  birthDate: '1968-05-14',
  age: 58,
  gender: 'Female',
  version: 1,
  createdAt: '2026-01-05T09:00:00.000Z',
  updatedAt: '2026-01-05T09:00:00.000Z',
  deletedAt: null,
  lastHeight: 165.5,
};

const values: RecordValue[] = [
  { field: 'age', value: 58, date: null, filled: true },
  { field: 'gender', value: 'Female', date: null, filled: true },
  { field: 'height', value: 162, date: '2026-10-02', filled: true },
  { field: 'weight', value: 88.4, date: '2026-10-02', filled: true },
  { field: 'smoking', value: true, date: '2019-03-01', filled: false },
  { field: 'familyHistory', condition: 'DM2', value: true, date: null, filled: true },
  { field: 'diagnosed', condition: 'Hypertension', value: true, date: '2024-06', filled: true },
];

const launch: RecordLaunch = { id: 'l-1', values, unread: [], writeBack: true };

describe('formWithRecordValues', () => {
  it('puts every filled value in its field and leaves out those too old', () => {
    const form = formWithRecordValues(emptyForm, values);
    expect(form.demographics).toEqual({
      age: '58',
      gender: 'Female',
      height: '162',
      weight: '88.4',
    });
    expect(form.riskFactors).toEqual({ familyHistory: { DM2: true } });
    expect(form.riskFactors.smoking).toBeUndefined();
    expect(form.management).toEqual({ Hypertension: { diagnosed: true } });
  });

  it('fills a value of false: a smoker no longer', () => {
    const form = formWithRecordValues(emptyForm, [
      { field: 'smoking', value: false, date: '2026-09-01', filled: true },
    ]);
    expect(form.riskFactors.smoking).toBe(false);
  });

  it('keeps the answers it has nothing for, and a diagnosed condition its choices', () => {
    const before: AssessmentForm = {
      ...emptyForm,
      riskFactors: { householdTBExposure: true, familyHistory: { Asthma: true } },
      management: { Hypertension: { diagnosed: false }, DM2: { diagnosed: true } },
    };
    const form = formWithRecordValues(before, values);
    expect(form.riskFactors).toEqual({
      householdTBExposure: true,
      familyHistory: { Asthma: true, DM2: true },
    });
    expect(form.management).toEqual({
      Hypertension: { diagnosed: true },
      DM2: { diagnosed: true },
    });
  });

  it('takes the first value of a field the record gave twice', () => {
    const form = formWithRecordValues(emptyForm, [
      { field: 'weight', value: 88, date: '2026-10-02', filled: true },
      { field: 'weight', value: 70, date: '2026-01-02', filled: true },
    ]);
    expect(form.demographics.weight).toBe('88');
  });

  it('changes nothing without values', () => {
    expect(formWithRecordValues(emptyForm, [])).toBe(emptyForm);
  });
});

describe('formFromLaunch', () => {
  it('without a patient record: the record values alone, no patient chosen', () => {
    const form = formFromLaunch(launch, null);
    expect(form.patient.chosen).toBeNull();
    expect(form.demographics.height).toBe('162');
  });

  it("with a patient record: chosen, and the record's values over what it filled", () => {
    const form = formFromLaunch(launch, patient);
    expect(form.patient.chosen).toEqual({
      id: 'p-1',
      number: 'SMART-1001',
      name: 'Thandi Mokoena',
    });
    expect(form.patient.number).toBe('SMART-1001');
    // The record's height of 2 Oct 2026, not the patient record's last one.
    expect(form.demographics).toEqual({
      age: '58',
      gender: 'Female',
      height: '162',
      weight: '88.4',
    });
  });

  it("keeps the patient record's values where the record's are too old", () => {
    const oldOnly: RecordLaunch = {
      ...launch,
      values: [{ field: 'height', value: 170, date: '2020-01-10', filled: false }],
    };
    const form = formFromLaunch(oldOnly, patient);
    expect(form.demographics).toEqual({ age: '58', gender: 'Female', height: '165.5', weight: '' });
  });
});

describe('formatRecordDate', () => {
  it('reads day, short month and year in English', () => {
    expect(formatRecordDate('2026-10-02')).toBe('2 Oct 2026');
    expect(formatRecordDate('2025-01-10')).toBe('10 Jan 2025');
    expect(formatRecordDate('2024-09-30')).toBe('30 Sep 2024');
    expect(formatRecordDate('2019-12-31')).toBe('31 Dec 2019');
  });

  it('keeps the day of a dated time whatever its zone', () => {
    expect(formatRecordDate('2026-10-02T23:30:00-05:00')).toBe('2 Oct 2026');
  });

  it('says as much as a partial date does', () => {
    expect(formatRecordDate('2024-06')).toBe('Jun 2024');
    expect(formatRecordDate('2024')).toBe('2024');
  });

  it('shows what it cannot read as written', () => {
    expect(formatRecordDate('2024-13-01')).toBe('2024-13-01');
    expect(formatRecordDate('last spring')).toBe('last spring');
  });
});

describe('recordNote', () => {
  const filled = formWithRecordValues(emptyForm, values);

  it('says where a filled value came from, with its date or without', () => {
    expect(recordNote(values[2]!, filled)).toBe('from the record, 2 Oct 2026');
    expect(recordNote(values[0]!, filled)).toBe('from the record');
    expect(recordNote(values[6]!, filled)).toBe('from the record, Jun 2024');
  });

  it('goes once the nurse changes the value away from the record', () => {
    const changed: AssessmentForm = {
      ...filled,
      demographics: { ...filled.demographics, height: '163' },
    };
    expect(recordNote(values[2]!, changed)).toBeNull();
    const emptied = { ...filled, demographics: { ...filled.demographics, height: '' } };
    expect(recordNote(values[2]!, emptied)).toBeNull();
    const undiagnosed = { ...filled, management: { Hypertension: { diagnosed: false } } };
    expect(recordNote(values[6]!, undiagnosed)).toBeNull();
  });

  it('stays for the same number typed another way', () => {
    const retyped = { ...filled, demographics: { ...filled.demographics, height: '162.0' } };
    expect(recordNote(values[2]!, retyped)).toBe('from the record, 2 Oct 2026');
  });

  it('shows a value too old to fill in with its unit and date, whatever the field holds', () => {
    const weight: RecordValue = { field: 'weight', value: 80, date: '2025-01-10', filled: false };
    expect(recordNote(weight, emptyForm)).toBe(
      'In the record: 80 kg, 10 Jan 2025 (too old to fill in)',
    );
    expect(recordNote(values[4]!, emptyForm)).toBe(
      'In the record: smokes, 1 Mar 2019 (too old to fill in)',
    );
    const old = (value: RecordValue) => recordNote({ ...value, filled: false }, emptyForm);
    expect(old({ field: 'height', value: 170.5, date: '2024', filled: false })).toBe(
      'In the record: 170.5 cm, 2024 (too old to fill in)',
    );
    expect(old({ field: 'smoking', value: false, date: '2020-02-02', filled: false })).toBe(
      'In the record: does not smoke, 2 Feb 2020 (too old to fill in)',
    );
    expect(old(values[5]!)).toBe('In the record: family history, undated (not filled in)');
    expect(old(values[6]!)).toBe('In the record: diagnosed, Jun 2024 (too old to fill in)');
  });

  it('says an undated value was not filled in without calling it old', () => {
    const weight: RecordValue = { field: 'weight', value: 80, date: null, filled: false };
    expect(recordNote(weight, emptyForm)).toBe('In the record: 80 kg, undated (not filled in)');
  });
});

describe('recordNotes', () => {
  it('gives each field its note, family history and diagnoses by condition', () => {
    const form = formWithRecordValues(emptyForm, values);
    expect(recordNotes(launch, form)).toEqual({
      age: 'from the record',
      gender: 'from the record',
      height: 'from the record, 2 Oct 2026',
      weight: 'from the record, 2 Oct 2026',
      smoking: 'In the record: smokes, 1 Mar 2019 (too old to fill in)',
      familyHistory: { DM2: 'from the record' },
      diagnosed: { Hypertension: 'from the record, Jun 2024' },
    });
  });

  it('keeps a field the nurse changed, without its note', () => {
    const form = formWithRecordValues(emptyForm, values);
    const changed: AssessmentForm = {
      ...form,
      demographics: { ...form.demographics, weight: '90' },
      riskFactors: { familyHistory: { DM2: false } },
    };
    const notes = recordNotes(launch, changed);
    expect(notes.weight).toBeNull();
    expect(notes.familyHistory).toEqual({ DM2: null });
    expect(notes.height).toBe('from the record, 2 Oct 2026');
    expect(notes.smoking).toBe('In the record: smokes, 1 Mar 2019 (too old to fill in)');
  });

  it('has none without a launch', () => {
    expect(recordNotes(null, emptyForm)).toEqual({ familyHistory: {}, diagnosed: {} });
  });
});

describe('recordLaunchOf and unreadLines', () => {
  const smartLaunch: SmartLaunch = {
    ...launch,
    issuer: 'https://ehr.clinic.example/fhir/R4',
    patientRecordId: null,
    unread: [
      { resource: 'Condition', reason: 'Not granted by the record system.' },
      { resource: 'Observation', reason: 'The record system did not answer.' },
    ],
    writtenBack: null,
  };

  it('keeps what the wizard needs of the launch', () => {
    expect(recordLaunchOf(smartLaunch)).toEqual({
      id: 'l-1',
      values,
      unread: smartLaunch.unread,
      writeBack: true,
    });
  });

  it("lists what could not be read as 'resource: reason'", () => {
    expect(unreadLines(recordLaunchOf(smartLaunch))).toEqual([
      'Condition: Not granted by the record system.',
      'Observation: The record system did not answer.',
    ]);
    expect(unreadLines(null)).toEqual([]);
  });
});
