import { z } from 'zod';

/** Every error code the API answers with, so that clients can branch on them. */
export const errorCodes = [
  'bad_request',
  'invalid_json',
  'validation_failed',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'signed_off',
  'review_locked',
  'stale_version',
  /** A patient named by number whose live record has another gender (409, with existingId). */
  'patient_gender_differs',
  'precondition_required',
  /** A new patient or assessment in an organisation unit that is closed (409). */
  'unit_closed',
  /** A CDS Hooks call whose FHIR data was neither prefetched nor could be fetched (412). */
  'fhir_data_unavailable',
  /** A SMART launch's write-back the record system did not take (502); the assessment is kept. */
  'record_write_failed',
  'too_many_attempts',
  'database_unavailable',
  'disk_full',
  'internal',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** The one envelope every failure is sent in; `field` names the input at fault when one is. */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    field: z.string().optional(),
    /** With a 409 for a repeated assessment code or a patient number: the record that has it. */
    existingId: z.string().optional(),
  }),
});

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
