import {
  ageOn,
  birthDateProblem,
  patientNumberMessage,
  patientNumberSchema,
  type Patient,
} from '../../shared/api/patients.ts';
import { calendarDateSchema } from '../../shared/api/calendar-date.ts';
import { emptyPatientForm, type AssessmentForm, type PatientForm } from './form.ts';

/** How a patient reads in the search and on the results: 'MRN-1001 — Thandi Mokoena'. */
export function patientLabel(patient: { number: string; name: string | null }): string {
  return patient.name === null ? patient.number : `${patient.number} — ${patient.name}`;
}

/**
 * The number field changed: a chosen record stays chosen only while its number is unchanged; a new
 * patient stays new (its number corrected) until the field is emptied.
 */
export function withPatientNumber(patient: PatientForm, number: string): PatientForm {
  if (patient.chosen !== null && number === patient.chosen.number) return patient;
  const kept = number.trim() !== '';
  return {
    ...patient,
    number,
    chosen: null,
    isNew: patient.isNew && kept,
    byNumber: patient.byNumber && kept,
    // A choice to link whatever the gender was made for the record of the number as it was.
    linkWhateverGender: false,
  };
}

/** 'New patient' chosen for the typed number. */
export function asNewPatient(patient: PatientForm): PatientForm {
  return { ...patient, chosen: null, isNew: true, byNumber: false };
}

/** 'Use patient number' chosen offline for the typed number. */
export function asPatientByNumber(patient: PatientForm): PatientForm {
  return { ...patient, chosen: null, isNew: false, byNumber: true };
}

/**
 * The patient's age on the day of the assessment: for a new one (made today) the age the server
 * gives for today on the clinic's calendar; for a saved one from another day, the age on its day.
 */
export function patientAgeFor(
  patient: Pick<Patient, 'age' | 'birthDate'>,
  /** The saved assessment's day on the clinic's calendar, or null for a new assessment. */
  assessmentDay: string | null,
  today: string,
): number | null {
  if (assessmentDay === null || patient.birthDate === null) return patient.age;
  return assessmentDay === today ? patient.age : ageOn(patient.birthDate, assessmentDay);
}

/**
 * The form with a patient record chosen: their gender, age and height (at their latest
 * assessment) fill the demographics where the record knows them; every field stays editable.
 */
export function withChosenPatient(
  form: AssessmentForm,
  patient: Patient,
  age: number | null,
): AssessmentForm {
  const { demographics } = form;
  return {
    ...form,
    patient: {
      ...emptyPatientForm,
      number: patient.number,
      chosen: { id: patient.id, number: patient.number, name: patient.name },
    },
    demographics: {
      ...demographics,
      age: age === null ? demographics.age : String(age),
      gender: patient.gender ?? demographics.gender,
      height: patient.lastHeight === null ? demographics.height : String(patient.lastHeight),
    },
  };
}

/**
 * The form with the patient fields changed. A new patient's date of birth, once it changes to a
 * valid one, fills Age with the whole years on the clinic's calendar today; Age stays editable.
 */
export function withPatientForm(
  form: AssessmentForm,
  patient: PatientForm,
  today: string,
): AssessmentForm {
  const birthDate = patient.birthDate;
  const birthDateChanged = birthDate !== form.patient.birthDate;
  const fillsAge =
    patient.isNew &&
    birthDateChanged &&
    birthDate !== '' &&
    birthDateFieldProblem(birthDate, today) === undefined;
  return fillsAge
    ? {
        ...form,
        patient,
        demographics: { ...form.demographics, age: String(ageOn(birthDate, today)) },
      }
    : { ...form, patient };
}

function birthDateFieldProblem(birthDate: string, today: string): string | undefined {
  if (birthDate === '') return undefined;
  if (!calendarDateSchema.safeParse(birthDate).success) {
    return 'Enter the date of birth as a date (YYYY-MM-DD)';
  }
  return birthDateProblem(birthDate, today);
}

export interface PatientProblems {
  number?: string;
  birthDate?: string;
}

export const choosePatientMessage =
  "Choose the patient from the list, or 'New patient' if they have no record yet";

/**
 * What keeps the patient part from being saved: a number typed but neither chosen from the list
 * nor made a new patient, a number the server does not take, a date of birth in the future or over
 * 120 years back (judged here on the browser's calendar, finally by the server on the clinic's).
 */
export function patientProblems(patient: PatientForm, today: string): PatientProblems {
  if (patient.chosen !== null || patient.number.trim() === '') return {};
  if (!patientNumberSchema.safeParse(patient.number).success) {
    return { number: patientNumberMessage };
  }
  if (!patient.isNew && !patient.byNumber) return { number: choosePatientMessage };
  const birthDate = birthDateFieldProblem(patient.birthDate, today);
  return birthDate === undefined ? {} : { birthDate };
}

/** Whether a search's records include one with exactly this number (numbers ignore case). */
export function hasNumber(patients: ReadonlyArray<{ number: string }>, number: string): boolean {
  const wanted = number.trim().toLowerCase();
  return patients.some((patient) => patient.number.toLowerCase() === wanted);
}
