import { z } from 'zod';
import { CONDITIONS, isAssessmentCode, RISK_STATUSES } from '../../engine/index.ts';
import { assessmentInputSchema } from '../assessment-input.ts';
import {
  newPatientBodySchema,
  patientAssessmentSchema,
  patientReferenceSchema,
} from './patients.ts';

/**
 * A patient named by number by a device that could not search the records (a save made offline).
 * The server decides: the live record with this number when its gender agrees with the
 * assessment's (or either is not known), or whatever its gender when `linkWhateverGender`; with
 * another gender it refuses 409 `patient_gender_differs` naming the record in `existingId`. With
 * no live record under the number it makes one from these details, as `newPatient` does.
 */
export const patientByNumberSchema = newPatientBodySchema.extend({
  linkWhateverGender: z.boolean().default(false),
});
export type PatientByNumber = z.input<typeof patientByNumberSchema>;

export {
  assessmentListQuerySchema,
  assessmentListSchema,
  assessmentSummarySchema,
  type AssessmentList,
  type AssessmentListQuery,
  type AssessmentSummary,
} from './assessment-list.ts';

export const notesMaxLength = 20_000;

/**
 * What a client sends to create or replace an assessment: the patient data, notes and optionally
 * the code made when the assessment was started. Fields a client may add beside these (results,
 * scores) are dropped: the server computes every score itself.
 */
export const assessmentBodySchema = z.object({
  code: z
    .string()
    .refine(isAssessmentCode, 'Invalid assessment code: expected ASS-{time}-{4 characters}')
    .optional(),
  demographics: assessmentInputSchema.shape.demographics.default({}),
  riskFactors: assessmentInputSchema.shape.riskFactors.default({}),
  symptoms: assessmentInputSchema.shape.symptoms.default({}),
  management: assessmentInputSchema.shape.management.default({}),
  notes: z.string().max(notesMaxLength).nullable().optional(),
  /**
   * The patient record the assessment belongs to; null for none. An update without it keeps the
   * record it had.
   */
  patientId: z.string().min(1).max(100).nullable().optional(),
  /** Instead of patientId: a patient record to create with the assessment, in one transaction. */
  newPatient: newPatientBodySchema.optional(),
  /** Instead of patientId or newPatient: the patient named by number alone (saved offline). */
  patientByNumber: patientByNumberSchema.optional(),
  /**
   * The organisation unit where the assessment is done, chosen in step 1 by a user who works at
   * several; a patient record the save creates is registered there too. Left out: the patient
   * record's unit, else the user's only unit. An update keeps the unit it had.
   */
  orgUnitId: z.string().min(1).max(100).optional(),
});
export type AssessmentBody = z.input<typeof assessmentBodySchema>;

const conditionSchema = z.enum(CONDITIONS);
const riskStatusSchema = z.enum(RISK_STATUSES);

export const conditionResultSchema = z.object({
  condition: conditionSchema,
  totalScore: z.number(),
  factorCount: z.number(),
  riskStatus: riskStatusSchema,
  components: z.object({
    symptomScore: z.number(),
    riskFactorScore: z.number(),
    comorbidityScore: z.number(),
    managementScore: z.number(),
  }),
  managementScore: z.number().optional(),
  details: z.object({
    symptoms: z.array(
      z.object({
        name: z.string(),
        weight: z.number(),
        severityMultiplier: z.number(),
        contribution: z.number(),
      }),
    ),
    riskFactors: z.array(z.object({ name: z.string(), weight: z.number() })),
    threshold: z.number(),
    managementCap: z.number().optional(),
  }),
  interpretation: z.string(),
});

export const assessmentResultSchema = z.object({
  conditions: z.array(conditionResultSchema),
  patientBMI: z.number(),
  assessmentComplete: z.boolean(),
  totalScore: z.number(),
  ruleSetVersion: z.string(),
});

export const assessmentSchema = z.object({
  id: z.string(),
  code: z.string().nullable(),
  version: z.number().int(),
  demographics: assessmentInputSchema.shape.demographics.unwrap().extend({ bmi: z.number() }),
  riskFactors: assessmentInputSchema.shape.riskFactors.unwrap(),
  symptoms: assessmentInputSchema.shape.symptoms.unwrap(),
  management: assessmentInputSchema.shape.management.unwrap(),
  notes: z.string().nullable(),
  results: assessmentResultSchema,
  assessmentComplete: z.boolean(),
  totalScore: z.number(),
  signedOff: z.boolean(),
  signedOffAt: z.string().nullable(),
  signedOffBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  /** Set only on a soft-deleted assessment, which only an admin can read. */
  deletedAt: z.string().nullable(),
  patient: patientReferenceSchema.nullable(),
  /** The patient's latest live assessment made before this one: what changed since then. */
  previousAssessment: patientAssessmentSchema.nullable(),
});
export type Assessment = z.infer<typeof assessmentSchema>;

export const assessmentIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const staleVersionMessage =
  'Someone else changed this assessment after you opened it. Reload it to see their changes; nothing was saved.';
export const signedOffUpdateMessage = 'Cannot update signed-off assessment';
export const patientGenderDiffersMessage =
  'The patient record with this number has another gender. Link the assessment to it anyway, or change the patient number.';
