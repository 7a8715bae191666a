import { z } from 'zod';
import { CONDITIONS, GENDERS, RISK_STATUSES } from '../../engine/index.ts';
import { calendarDateSchema } from './calendar-date.ts';

/**
 * A patient record: the person a clinic knows by their patient number, whose assessments are kept
 * over time. Not to be mistaken for an assessment's measured demographics (the spec's `patients`
 * table), which are kept per assessment whether or not it names a patient record.
 */
export const patientNumberMaxLength = 32;
export const patientNumberMessage = `Patient numbers are 1 to ${patientNumberMaxLength} letters, digits, '-' or '/'`;

export const patientNumberSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9/-]{1,32}$/, patientNumberMessage);

export const patientNameSchema = z.string().trim().min(1).max(200);

/** The oldest a date of birth may be, in years before today. */
export const maxPatientAgeYears = 120;

export const patientBodySchema = z.object({
  number: patientNumberSchema,
  name: patientNameSchema.nullable().optional(),
  /** Not in the future and not over 120 years back, on the clinic's calendar (checked by the server). */
  birthDate: calendarDateSchema.nullable().optional(),
  gender: z.enum(GENDERS).nullable().optional(),
  /**
   * On create: the organisation unit the record is registered at, for a user who works at
   * several (else their only unit). An update keeps it (a transfer moves a record).
   */
  orgUnitId: z.string().min(1).max(100).optional(),
});
export type PatientBody = z.input<typeof patientBodySchema>;

/** Moves a patient record to another organisation unit; its assessments stay where they were done. */
export const patientTransferBodySchema = z.object({ orgUnitId: z.string().min(1).max(100) });
export type PatientTransferBody = z.input<typeof patientTransferBodySchema>;

/** A new patient named by the assessment that first sees them; gender comes from its demographics. */
export const newPatientBodySchema = patientBodySchema.pick({
  number: true,
  name: true,
  birthDate: true,
});
export type NewPatientBody = z.input<typeof newPatientBodySchema>;

export const patientSchema = z.object({
  id: z.string(),
  number: z.string(),
  name: z.string().nullable(),
  birthDate: z.string().nullable(),
  /** Whole years from the date of birth to today on the clinic's calendar (its time zone). */
  age: z.number().int().nullable(),
  gender: z.enum(GENDERS).nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Set only on a soft-deleted record, which only an admin can read. */
  deletedAt: z.string().nullable(),
  /** The height measured at the patient's latest assessment, to start the next one from. */
  lastHeight: z.number().nullable(),
});
export type Patient = z.infer<typeof patientSchema>;

/** How an assessment names its patient record. */
export const patientReferenceSchema = z.object({
  id: z.string(),
  number: z.string(),
  name: z.string().nullable(),
});
export type PatientReference = z.infer<typeof patientReferenceSchema>;

export const patientIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const patientListQuerySchema = z.object({
  /**
   * A patient number, or words of the name; each word matches the start of a word, except in a
   * search of one-character words only (the first key typed), which match whole words.
   */
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(300).optional(),
});
export type PatientListQuery = z.input<typeof patientListQuerySchema>;

export const patientListSchema = z.object({
  items: z.array(patientSchema),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type PatientList = z.infer<typeof patientListSchema>;

/** One assessment in a patient's timeline (and the earlier one an assessment is compared with). */
export const patientAssessmentSchema = z.object({
  id: z.string(),
  code: z.string().nullable(),
  createdAt: z.string(),
  totalScore: z.number(),
  bmi: z.number(),
  signedOff: z.boolean(),
  reviewLocked: z.boolean(),
  ruleSetVersion: z.string(),
  results: z.array(
    z.object({
      condition: z.enum(CONDITIONS),
      riskStatus: z.enum(RISK_STATUSES),
      totalScore: z.number(),
    }),
  ),
});
export type PatientAssessment = z.infer<typeof patientAssessmentSchema>;

export const patientAssessmentListSchema = z.object({
  items: z.array(patientAssessmentSchema),
});
export type PatientAssessmentList = z.infer<typeof patientAssessmentListSchema>;

/**
 * Whole years of age on a calendar day, both YYYY-MM-DD on the clinic's calendar: a birthday on
 * 29 February is reached on 1 March in a year without one.
 */
export function ageOn(birthDate: string, day: string): number {
  const [birthYear, birthMonthDay] = [Number(birthDate.slice(0, 4)), birthDate.slice(5)];
  const [year, monthDay] = [Number(day.slice(0, 4)), day.slice(5)];
  return year - birthYear - (monthDay < birthMonthDay ? 1 : 0);
}

/** Why a date of birth cannot be, on the clinic's calendar day `today`; undefined when it can. */
export function birthDateProblem(birthDate: string, today: string): string | undefined {
  if (birthDate > today) return 'The date of birth cannot be in the future';
  const earliest = `${String(Number(today.slice(0, 4)) - maxPatientAgeYears).padStart(4, '0')}${today.slice(4)}`;
  if (birthDate < earliest) {
    return `The date of birth cannot be more than ${maxPatientAgeYears} years ago`;
  }
  return undefined;
}

export const patientNumberTakenMessage = 'Another patient already has this patient number.';
export const stalePatientMessage =
  'Someone else changed this patient after you opened it. Reload to see their changes; nothing was saved.';
