import { describe, expect, it } from 'vitest';
import { patientNumberMessage, type Patient } from '../../shared/api/patients.ts';
import { emptyForm, emptyPatientForm, type PatientForm } from './form.ts';
import {
  asNewPatient,
  asPatientByNumber,
  choosePatientMessage,
  hasNumber,
  patientAgeFor,
  patientLabel,
  patientProblems,
  withChosenPatient,
  withPatientForm,
  withPatientNumber,
} from './patient.ts';

const patient: Patient = {
  id: 'p-1',
  number: 'MRN-1001',
  name: 'Thandi Mokoena',
  birthDate: '1970-03-14',
  age: 56,
  gender: 'Female',
  version: 3,
  createdAt: '2026-01-05T09:00:00.000Z',
  updatedAt: '2026-01-05T09:00:00.000Z',
  deletedAt: null,
  lastHeight: 165.5,
};

const chosen = { id: 'p-1', number: 'MRN-1001', name: 'Thandi Mokoena' };

describe('patientLabel', () => {
  it('reads number — name, or the number alone', () => {
    expect(patientLabel(patient)).toBe('MRN-1001 — Thandi Mokoena');
    expect(patientLabel({ number: 'MRN-7', name: null })).toBe('MRN-7');
  });
});

describe('withPatientNumber', () => {
  const picked: PatientForm = {
    number: 'MRN-1001',
    chosen,
    isNew: false,
    byNumber: false,
    linkWhateverGender: false,
    name: '',
    birthDate: '',
  };

  it('keeps the chosen record while its number is unchanged', () => {
    expect(withPatientNumber(picked, 'MRN-1001')).toBe(picked);
  });

  it('lets go of the chosen record when the number is edited', () => {
    expect(withPatientNumber(picked, 'MRN-100')).toEqual({
      ...picked,
      number: 'MRN-100',
      chosen: null,
    });
  });

  it('keeps a new patient new, with its details, until the number is emptied', () => {
    const typing: PatientForm = {
      number: 'MRN-7',
      chosen: null,
      isNew: true,
      byNumber: false,
      linkWhateverGender: false,
      name: 'Sipho',
      birthDate: '',
    };
    expect(withPatientNumber(typing, 'MRN-77')).toEqual({ ...typing, number: 'MRN-77' });
    expect(withPatientNumber(typing, ' ')).toEqual({ ...typing, number: ' ', isNew: false });
  });
});

describe('a patient by number', () => {
  it('is chosen for the typed number, and its choice to link whatever the gender ends with an edit', () => {
    const typed = { ...emptyPatientForm, number: 'MRN-77', isNew: true };
    const byNumber = asPatientByNumber(typed);
    expect(byNumber).toEqual({ ...typed, isNew: false, byNumber: true });
    const linking = { ...byNumber, linkWhateverGender: true };
    expect(withPatientNumber(linking, 'MRN-78')).toEqual({ ...byNumber, number: 'MRN-78' });
    expect(withPatientNumber(linking, '')).toEqual({ ...byNumber, number: '', byNumber: false });
  });

  it('needs no choice from a list, and its date of birth is checked', () => {
    const typed = { ...emptyPatientForm, number: 'MRN-77', byNumber: true };
    expect(patientProblems(typed, '2026-11-22')).toEqual({});
    expect(patientProblems({ ...typed, birthDate: '2030-01-01' }, '2026-11-22')).toEqual({
      birthDate: 'The date of birth cannot be in the future',
    });
  });
});

describe('asNewPatient', () => {
  it('makes the typed number a new patient', () => {
    const typed = { ...emptyPatientForm, number: 'MRN-77', name: 'Sipho' };
    expect(asNewPatient(typed)).toEqual({ ...typed, isNew: true });
  });
});

describe('patientAgeFor', () => {
  it("takes the server's age for today for a new assessment", () => {
    expect(patientAgeFor(patient, null, '2026-11-22')).toBe(56);
  });

  it('takes the age on the day of a saved assessment from another day', () => {
    expect(patientAgeFor(patient, '2025-03-13', '2026-11-22')).toBe(54);
    expect(patientAgeFor(patient, '2025-03-14', '2026-11-22')).toBe(55);
  });

  it("takes the server's age for a saved assessment made today", () => {
    expect(patientAgeFor(patient, '2026-11-22', '2026-11-22')).toBe(56);
  });

  it('has no age without a date of birth', () => {
    const unknown = { age: null, birthDate: null };
    expect(patientAgeFor(unknown, null, '2026-11-22')).toBeNull();
    expect(patientAgeFor(unknown, '2025-03-13', '2026-11-22')).toBeNull();
  });
});

describe('withChosenPatient', () => {
  it('fills gender, age and height from the record and keeps the weight', () => {
    const typed = {
      ...emptyForm,
      patient: {
        number: 'MRN-10',
        chosen: null,
        isNew: true,
        byNumber: false,
        linkWhateverGender: false,
        name: 'Old',
        birthDate: '2000-01-01',
      },
      demographics: { age: '40', gender: 'Male' as const, height: '170', weight: '80' },
      notes: 'kept',
    };
    expect(withChosenPatient(typed, patient, 56)).toEqual({
      ...typed,
      patient: {
        number: 'MRN-1001',
        chosen,
        isNew: false,
        byNumber: false,
        linkWhateverGender: false,
        name: '',
        birthDate: '',
      },
      demographics: { age: '56', gender: 'Female', height: '165.5', weight: '80' },
    });
  });

  it('leaves a field alone that the record does not know', () => {
    const unknown = { ...patient, gender: null, lastHeight: null };
    const typed = {
      ...emptyForm,
      demographics: { age: '40', gender: 'Male' as const, height: '170', weight: '' },
    };
    expect(withChosenPatient(typed, unknown, null).demographics).toEqual(typed.demographics);
  });
});

describe('patientProblems', () => {
  const today = '2026-11-22';
  const typed = (fields: Partial<PatientForm>): PatientForm => ({
    ...emptyPatientForm,
    number: 'MRN-77',
    isNew: true,
    ...fields,
  });

  it('finds nothing without a number, or with a chosen record', () => {
    expect(patientProblems(emptyPatientForm, today)).toEqual({});
    expect(patientProblems(typed({ number: '  ', isNew: false }), today)).toEqual({});
    expect(
      patientProblems(
        {
          number: 'MRN-1001',
          chosen,
          isNew: false,
          byNumber: false,
          linkWhateverGender: false,
          name: '',
          birthDate: '2099-01-01',
        },
        today,
      ),
    ).toEqual({});
  });

  it("asks for a choice when a number is neither chosen nor made a 'New patient'", () => {
    expect(patientProblems(typed({ isNew: false }), today)).toEqual({
      number: choosePatientMessage,
    });
  });

  it('checks a typed number as the server does', () => {
    expect(patientProblems(typed({}), today)).toEqual({});
    expect(patientProblems(typed({ number: ' mrn/77-a ' }), today)).toEqual({});
    expect(patientProblems(typed({ number: 'Thandi Mokoena', isNew: false }), today)).toEqual({
      number: patientNumberMessage,
    });
    expect(patientProblems(typed({ number: 'X'.repeat(33) }), today).number).toBe(
      patientNumberMessage,
    );
  });

  it("checks a new patient's date of birth against today", () => {
    expect(patientProblems(typed({ birthDate: '2026-11-22' }), today)).toEqual({});
    expect(patientProblems(typed({ birthDate: '2026-11-23' }), today)).toEqual({
      birthDate: 'The date of birth cannot be in the future',
    });
    expect(patientProblems(typed({ birthDate: '1906-11-21' }), today)).toEqual({
      birthDate: 'The date of birth cannot be more than 120 years ago',
    });
    expect(patientProblems(typed({ birthDate: '1980-02-30' }), today)).toEqual({
      birthDate: 'Enter the date of birth as a date (YYYY-MM-DD)',
    });
  });
});

describe('hasNumber', () => {
  it('finds the exact number without case, not a longer one', () => {
    const found = [{ number: 'MRN-1001' }, { number: 'MRN-10010' }];
    expect(hasNumber(found, ' mrn-1001 ')).toBe(true);
    expect(hasNumber(found, 'MRN-100')).toBe(false);
    expect(hasNumber([], 'MRN-1001')).toBe(false);
  });
});

describe('withPatientForm', () => {
  const today = '2026-11-28';
  const newPatient: PatientForm = { ...emptyPatientForm, number: 'MRN-2001', isNew: true };
  const typed = {
    ...emptyForm,
    patient: newPatient,
    demographics: { ...emptyForm.demographics, age: '25' },
  };

  it("fills Age from a new patient's date of birth, on the given calendar day", () => {
    const changed = withPatientForm(typed, { ...newPatient, birthDate: '1986-11-29' }, today);
    expect(changed.patient.birthDate).toBe('1986-11-29');
    expect(changed.demographics.age).toBe('39');
    const birthday = withPatientForm(typed, { ...newPatient, birthDate: '1986-11-28' }, today);
    expect(birthday.demographics.age).toBe('40');
  });

  it('leaves Age as typed when the date of birth is not one that can be, or did not change', () => {
    for (const birthDate of ['', '2026-11-29', '1800-01-01', '1986-13-01']) {
      const changed = withPatientForm(typed, { ...newPatient, birthDate }, today);
      expect(changed.demographics.age, birthDate).toBe('25');
    }
    // Another field of the patient changing keeps an age corrected after the date was entered.
    const dated = { ...typed, patient: { ...newPatient, birthDate: '1986-11-29' } };
    const renamed = withPatientForm(dated, { ...dated.patient, name: 'Sipho' }, today);
    expect(renamed.demographics.age).toBe('25');
    expect(renamed.patient.name).toBe('Sipho');
  });

  it('fills nothing for a patient who is not new', () => {
    const byNumber = { ...newPatient, isNew: false, byNumber: true, birthDate: '1986-11-29' };
    expect(withPatientForm(typed, byNumber, today).demographics.age).toBe('25');
  });
});
