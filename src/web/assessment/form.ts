import type { Assessment, AssessmentBody } from '../../shared/api/assessments.ts';
import { DEMOGRAPHIC_RANGES } from '../../shared/assessment-input.ts';
import type { PatientReference } from '../../shared/api/patients.ts';
import type {
  Condition,
  Demographics,
  Gender,
  ManagementAnswer,
  ManagementAnswers,
  PatientData,
  RiskFactorAnswers,
  SymptomAnswer,
  SymptomAnswers,
} from '../../engine/index.ts';

/** The demographics as typed: numbers stay text until they are valid, so nothing typed is lost. */
export interface DemographicsForm {
  age: string;
  gender: Gender | null;
  height: string;
  weight: string;
}

/**
 * The patient record the assessment belongs to, all optional: none (the anonymous assessment), one
 * chosen from the search, or a new one under a number no record has.
 */
export interface PatientForm {
  /** The patient number field as typed. */
  number: string;
  /** The record chosen from the search; `number` is its number while it stays chosen. */
  chosen: PatientReference | null;
  /** 'New patient' was chosen: a record is made under `number` when the assessment is saved. */
  isNew: boolean;
  /**
   * 'Use patient number' was chosen offline, where the records could not be searched: the server
   * links the record with `number` if the gender agrees, or makes one if none has it.
   */
  byNumber: boolean;
  /** The user chose to link the record with `number` although its gender differs. */
  linkWhateverGender: boolean;
  /** For a new patient (or one by number that no record has): the name and date of birth. */
  name: string;
  /** YYYY-MM-DD, or empty. */
  birthDate: string;
}

export const emptyPatientForm: PatientForm = {
  number: '',
  chosen: null,
  isNew: false,
  byNumber: false,
  linkWhateverGender: false,
  name: '',
  birthDate: '',
};

/** What the wizard edits: the demographics as typed, the other answers as the engine reads them. */
export interface AssessmentForm {
  patient: PatientForm;
  demographics: DemographicsForm;
  riskFactors: RiskFactorAnswers;
  symptoms: SymptomAnswers;
  management: ManagementAnswers;
  notes: string;
  /**
   * The organisation unit where a new assessment is done, chosen in step 1 by a user who works at
   * several (unitChoice.ts); null: none chosen, the server takes the user's only unit.
   */
  orgUnitId: string | null;
}

export type DemographicField = keyof DemographicsForm;

export interface FieldProblem {
  message: string;
  /** Nothing entered yet: shown once the field has been visited, and it does not block a save. */
  missing: boolean;
}

export interface ParsedDemographics {
  /** Only the valid values; an invalid one is left out, as if not answered. */
  values: Demographics;
  problems: Partial<Record<DemographicField, FieldProblem>>;
}

export const emptyForm: AssessmentForm = {
  patient: emptyPatientForm,
  demographics: { age: '', gender: null, height: '', weight: '' },
  riskFactors: {},
  symptoms: {},
  management: {},
  notes: '',
  orgUnitId: null,
};

const oneDecimal = /^\d+(\.\d)?$/;
const wholeNumber = /^\d+$/;

function missing(message: string): FieldProblem {
  return { message, missing: true };
}

function invalid(message: string): FieldProblem {
  return { message, missing: false };
}

/**
 * The ages the wizard goes on with: step 2 needs an age above 0 (spec 4), up to the API's most.
 * The field's hint, its bounds and its message all say this one range.
 */
export const WIZARD_AGE_RANGE = { min: 1, max: DEMOGRAPHIC_RANGES.age.max } as const;

const ageRangeMessage = `Age must be between ${WIZARD_AGE_RANGE.min} and ${WIZARD_AGE_RANGE.max}`;

function parseAge(text: string): { value?: number; problem?: FieldProblem } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: missing('Age is required') };
  if (!wholeNumber.test(trimmed)) return { problem: invalid('Age must be a whole number') };
  const age = Number(trimmed);
  const { min, max } = DEMOGRAPHIC_RANGES.age;
  if (age < min || age > max) return { problem: invalid(ageRangeMessage) };
  // 0 is an age the engine scores (a stored assessment may hold it), but not one to go on with.
  if (age < WIZARD_AGE_RANGE.min) return { value: age, problem: invalid(ageRangeMessage) };
  return { value: age };
}

function parseMeasure(
  text: string,
  name: 'Height' | 'Weight',
  unit: string,
  limits: { min: number; max: number },
): { value?: number; problem?: FieldProblem } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: missing(`${name} is required`) };
  if (!oneDecimal.test(trimmed)) {
    return { problem: invalid(`${name} must be a number with at most one decimal place`) };
  }
  const value = Number(trimmed);
  if (value < limits.min || value > limits.max) {
    return { problem: invalid(`${name} must be between ${limits.min} and ${limits.max} ${unit}`) };
  }
  return { value };
}

/** The valid demographic values and a message for every field that is missing or invalid. */
export function parseDemographics(form: DemographicsForm): ParsedDemographics {
  const age = parseAge(form.age);
  const height = parseMeasure(form.height, 'Height', 'cm', DEMOGRAPHIC_RANGES.height);
  const weight = parseMeasure(form.weight, 'Weight', 'kg', DEMOGRAPHIC_RANGES.weight);
  const values: { -readonly [K in keyof Demographics]: Demographics[K] } = {};
  const problems: ParsedDemographics['problems'] = {};
  if (age.value !== undefined) values.age = age.value;
  if (age.problem) problems.age = age.problem;
  if (form.gender !== null) values.gender = form.gender;
  else problems.gender = missing('Gender is required');
  if (height.value !== undefined) values.height = height.value;
  if (height.problem) problems.height = height.problem;
  if (weight.value !== undefined) values.weight = weight.value;
  if (weight.problem) problems.weight = weight.problem;
  return { values, problems };
}

/** True when a field holds something that is not a valid answer (as opposed to nothing yet). */
export function hasInvalidDemographics(parsed: ParsedDemographics): boolean {
  return Object.values(parsed.problems).some((problem) => !problem.missing);
}

/** The engine's input: the valid demographics and the answers. */
export function patientData(form: AssessmentForm, parsed: ParsedDemographics): PatientData {
  return {
    demographics: parsed.values,
    riskFactors: form.riskFactors,
    symptoms: form.symptoms,
    management: form.management,
  };
}

/** A new patient under a typed number: the record is made with the save. */
export function isNewPatient(patient: PatientForm): boolean {
  return patient.chosen === null && patient.isNew && patient.number.trim() !== '';
}

/** The patient is named by the typed number, for the server to find or make (see byNumber). */
export function isPatientByNumber(patient: PatientForm): boolean {
  return patient.chosen === null && patient.byNumber && patient.number.trim() !== '';
}

/**
 * How a save names the patient: the chosen record's id, a new record's details, the number for
 * the server to link, or null for none (which also unlinks a saved assessment from the record it
 * had). A number typed but not chosen, made new or used names none; the wizard asks for a choice
 * before saving.
 */
export function patientBodyPart(
  patient: PatientForm,
): Pick<AssessmentBody, 'patientId' | 'newPatient' | 'patientByNumber'> {
  if (patient.chosen !== null) return { patientId: patient.chosen.id };
  const byNumber = isPatientByNumber(patient);
  if (!byNumber && !isNewPatient(patient)) return { patientId: null };
  const name = patient.name.trim();
  const details = {
    number: patient.number.trim(),
    ...(name === '' ? {} : { name }),
    ...(patient.birthDate === '' ? {} : { birthDate: patient.birthDate }),
  };
  if (!byNumber) return { newPatient: details };
  return {
    patientByNumber: {
      ...details,
      ...(patient.linkWhateverGender ? { linkWhateverGender: true } : {}),
    },
  };
}

/**
 * What a save sends; the code only on the first save. The unit when one was chosen: only a new
 * assessment has one (a saved one keeps the unit it was made at).
 */
export function assessmentBody(form: AssessmentForm, code?: string): AssessmentBody {
  const parsed = parseDemographics(form.demographics);
  return {
    ...(code === undefined ? {} : { code }),
    ...(form.orgUnitId === null ? {} : { orgUnitId: form.orgUnitId }),
    ...patientBodyPart(form.patient),
    demographics: parsed.values,
    riskFactors: form.riskFactors,
    symptoms: form.symptoms,
    management: form.management,
    notes: form.notes === '' ? null : form.notes,
  };
}

/** The form showing a saved assessment. */
export function formFromAssessment(assessment: Assessment): AssessmentForm {
  const { age, gender, height, weight } = assessment.demographics;
  const { patient } = assessment;
  return {
    patient:
      patient === null
        ? emptyPatientForm
        : { ...emptyPatientForm, number: patient.number, chosen: patient },
    demographics: {
      age: age === undefined ? '' : String(age),
      gender: gender ?? null,
      height: height === undefined ? '' : String(height),
      weight: weight === undefined ? '' : String(weight),
    },
    riskFactors: assessment.riskFactors,
    symptoms: assessment.symptoms,
    management: assessment.management,
    notes: assessment.notes ?? '',
    // A saved assessment's answer does not say its unit; the unit does not change after the save.
    orgUnitId: null,
  };
}

/**
 * JSON with sorted keys and without empty parts, so that two forms that say the same thing (an
 * empty family history or none at all) compare equal.
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const entries = Object.entries(v)
      .filter(([, inner]) => inner !== undefined && !isEmptyObject(inner))
      .sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(entries);
  });
}

function isEmptyObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every((inner) => inner === undefined || isEmptyObject(inner));
}

/**
 * Whether saving either form would store the same assessment. The unit is left out: an update
 * does not change it.
 */
export function sameContent(a: AssessmentForm, b: AssessmentForm): boolean {
  const content = (form: AssessmentForm) =>
    canonicalJson(assessmentBody({ ...form, orgUnitId: null }));
  return content(a) === content(b);
}

type AnswersByKey = Readonly<Record<string, SymptomAnswer | undefined>>;

/** A condition's symptom answers by key. */
export function symptomAnswers(symptoms: SymptomAnswers, condition: Condition): AnswersByKey {
  return symptoms[condition] ?? {};
}

/** The symptoms with one answer replaced. */
export function withSymptomAnswer(
  symptoms: SymptomAnswers,
  condition: Condition,
  key: string,
  answer: SymptomAnswer,
): SymptomAnswers {
  // The step offers only the catalogue's keys and each scale's own severities.
  return { ...symptoms, [condition]: { ...symptomAnswers(symptoms, condition), [key]: answer } };
}

/** The management answers with one condition's answer replaced. */
export function withManagementAnswer(
  management: ManagementAnswers,
  condition: Condition,
  answer: ManagementAnswer,
): ManagementAnswers {
  return { ...management, [condition]: answer };
}

/** Whether any symptom has been answered (the Symptoms tick of spec 4). */
export function anySymptomRecorded(symptoms: SymptomAnswers): boolean {
  return Object.values(symptoms).some(
    (answers) => answers !== undefined && Object.values(answers).some((a) => a !== undefined),
  );
}

/** Whether any management question has been answered (the Management tick of spec 4). */
export function anyManagementRecorded(management: ManagementAnswers): boolean {
  return Object.values(management).some((answer) => answer !== undefined);
}
