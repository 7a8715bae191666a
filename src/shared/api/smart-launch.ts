import { z } from 'zod';
import { CONDITIONS, FAMILY_HISTORY_CONDITIONS, GENDERS } from '../../engine/index.ts';

/**
 * A launch from a record system as a SMART app (issue 39): what the record told the wizard, and
 * what it could not be asked. The server reads the record with the launch's access token; the
 * browser never holds it.
 */

/** Where a value came from: the day the record says it was taken, if it says. */
const sourced = {
  /** The day of the value in the record (YYYY-MM-DD, or YYYY-MM / YYYY as written); null when undated. */
  date: z.string().nullable(),
  /** False for a value older than SMART_MAX_AGE_DAYS: shown beside the field, not put in it. */
  filled: z.boolean(),
};

export const recordValueSchema = z.discriminatedUnion('field', [
  /** Whole years on the clinic's calendar today, from the record's date of birth; undated. */
  z.object({ field: z.literal('age'), value: z.number().int(), ...sourced }),
  z.object({ field: z.literal('gender'), value: z.enum(GENDERS), ...sourced }),
  /** Centimetres, converted from the record's unit and rounded to 0.1. */
  z.object({ field: z.literal('height'), value: z.number(), ...sourced }),
  /** Kilograms, converted from the record's unit and rounded to 0.1. */
  z.object({ field: z.literal('weight'), value: z.number(), ...sourced }),
  /** True for a current smoker, false for never or former. */
  z.object({ field: z.literal('smoking'), value: z.boolean(), ...sourced }),
  /** A condition a close relative has, from FamilyMemberHistory. */
  z.object({
    field: z.literal('familyHistory'),
    condition: z.enum(FAMILY_HISTORY_CONDITIONS),
    value: z.literal(true),
    ...sourced,
  }),
  /** A condition diagnosed and active, from Condition, by the codes of the CDS Hooks mapping. */
  z.object({
    field: z.literal('diagnosed'),
    condition: z.enum(CONDITIONS),
    value: z.literal(true),
    ...sourced,
  }),
]);
export type RecordValue = z.infer<typeof recordValueSchema>;

/** The record's resources the launch reads. */
export const RECORD_RESOURCES = [
  'Patient',
  'Observation',
  'Condition',
  'FamilyMemberHistory',
] as const;
export type RecordResource = (typeof RECORD_RESOURCES)[number];

export const smartLaunchSchema = z.object({
  id: z.string(),
  /** The FHIR base URL of the record system that launched the app. */
  issuer: z.string(),
  /** The patient record in this product: matched by the Patient's identifier, or made now. */
  patientRecordId: z.string().nullable(),
  values: z.array(recordValueSchema),
  /** What the record could not be asked or did not answer; the nurse fills those fields in. */
  unread: z.array(
    z.object({
      resource: z.enum(RECORD_RESOURCES),
      /** One sentence for the page, e.g. 'Not granted by the record system.' */
      reason: z.string(),
    }),
  ),
  /** Whether the saved assessment goes back into the record (SMART_WRITE_BACK). */
  writeBack: z.boolean(),
  /** The assessment written back to the record, once it has been. */
  writtenBack: z.object({ assessmentId: z.string(), at: z.string() }).nullable(),
});
export type SmartLaunch = z.infer<typeof smartLaunchSchema>;

export const smartWriteBackBodySchema = z.object({ assessmentId: z.string().min(1).max(100) });
export type SmartWriteBackBody = z.input<typeof smartWriteBackBodySchema>;

export const smartWriteBackResultSchema = z.object({
  /** RiskAssessments made in the record by this request. */
  created: z.number().int(),
  /** RiskAssessments the record already held (an earlier attempt made them). */
  alreadyThere: z.number().int(),
  at: z.string(),
});
export type SmartWriteBackResult = z.infer<typeof smartWriteBackResultSchema>;
