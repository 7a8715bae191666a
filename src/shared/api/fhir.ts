import { z } from 'zod';

/**
 * The FHIR R4 read API (issue 20): its query parameters, the shapes the OpenAPI document shows
 * (each a FHIR resource, loosely: the FHIR R4 JSON schema is what the tests check them against),
 * and the diagnostics of its OperationOutcomes, which never echo what the request asked for.
 */

/** Entries of a RiskAssessment search page unless `_count` says otherwise, and the most. */
export const fhirDefaultPageSize = 20;
export const fhirMaxPageSize = 100;

export const fhirIdParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/, 'not a FHIR id'),
});

/** `_format`, which FHIR lets a client name in place of an Accept header. */
const formatParam = z.string().optional();

export const riskAssessmentSearchSchema = z.object({
  /** `Patient/{id}`, or the id alone. */
  subject: z.string().min(1).max(200),
  /** A larger count is served as the most the server gives (FHIR lets a server give fewer). */
  _count: z.coerce
    .number()
    .int()
    .min(0)
    .default(fhirDefaultPageSize)
    .transform((count) => Math.min(count, fhirMaxPageSize)),
  /** Where the page starts: the opaque value of the previous page's `next` link. */
  _cursor: z.string().max(200).optional(),
  _format: formatParam,
});

export const patientSearchSchema = z.object({
  /** `SYSTEM|VALUE`, `|VALUE` (no system) or `VALUE` (any system). */
  identifier: z.string().min(1).max(300),
  _format: formatParam,
});

export const metadataQuerySchema = z.object({ _format: formatParam });

const resource = <T extends string>(type: T) =>
  z.looseObject({ resourceType: z.literal(type), id: z.string().optional() });

export const capabilityStatementSchema = resource('CapabilityStatement').describe(
  'application/fhir+json CapabilityStatement',
);
export const riskAssessmentResourceSchema = resource('RiskAssessment').describe(
  'application/fhir+json RiskAssessment, as the FHIR export writes it',
);
export const observationResourceSchema = resource('Observation').describe(
  "application/fhir+json Observation: a measurement in a RiskAssessment's basis",
);
export const conditionResourceSchema = resource('Condition').describe(
  'application/fhir+json Condition: a condition diagnosed at the assessment',
);
export const patientResourceSchema = resource('Patient').describe('application/fhir+json Patient');
export const searchsetBundleSchema = resource('Bundle').describe(
  'application/fhir+json Bundle of type searchset, with total and a next link while more remain',
);
export const operationOutcomeSchema = resource('OperationOutcome').describe(
  'application/fhir+json OperationOutcome: issue severity, code and diagnostics',
);

/** The diagnostics of the API's OperationOutcomes. */
export const fhirTexts = {
  unknownPath: 'This FHIR server has no such resource type, path or interaction.',
  notFound: 'No live resource has this id.',
  badSubject: 'The subject must be a reference to a Patient: Patient/{id}.',
  badIdentifier: 'The identifier must be SYSTEM|VALUE, |VALUE or VALUE, with a value.',
  badCursor: 'The paging cursor is not one this server gave.',
  notAcceptable:
    'This server answers application/fhir+json (or application/json) only; _format may be json.',
  unauthenticated: 'Sign in, or send an API token: Authorization: Bearer <token>.',
  invalidToken: 'The API token is not valid (unknown, or revoked).',
  forbidden: 'You do not have permission to do this.',
  unavailable: 'The database is unavailable; try again shortly.',
  unexpected: 'The request could not be completed.',
} as const;
