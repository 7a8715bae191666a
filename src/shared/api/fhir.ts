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

/**
 * A search parameter as the query string carries it: once, or repeated. The services read the
 * parameters themselves (services/fhir-api.ts), so that a repeated one, an unknown one and a form
 * of POST [type]/_search are treated alike; these schemas document them.
 */
const searchParam = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(description);

/**
 * `unit`: an organisation unit's id (an Organization's id). A search reads only the records of
 * the reader's scope (issue 36); with `unit`, those of that unit and the units below it.
 */
const unitSearchParam = searchParam(
  'Narrows the answer to this organisation unit and the units below it, within your scope',
);

export const riskAssessmentSearchSchema = z.looseObject({
  patient: searchParam('The Patient: {id}, Patient/{id} or its URL on this server'),
  subject: searchParam('The Patient: Patient/{id}, {id} or its URL on this server'),
  'subject:Patient': searchParam('The Patient: {id}'),
  _lastUpdated: searchParam('gt, ge, lt or le and an instant with its zone; repeat for a range'),
  _sort: searchParam('date, -date (the default) or _lastUpdated'),
  _count: searchParam(
    `Entries a page: ${fhirDefaultPageSize} unless given, at most ${fhirMaxPageSize}`,
  ),
  _summary: searchParam('count: the total alone'),
  _cursor: searchParam("Where the page starts: the opaque value of the previous page's next link"),
  unit: unitSearchParam,
  _format: formatParam,
});

export const patientSearchSchema = z.looseObject({
  identifier: searchParam('SYSTEM|VALUE, |VALUE (no system) or VALUE (any system)'),
  unit: unitSearchParam,
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
export const organizationResourceSchema = resource('Organization').describe(
  'application/fhir+json Organization: an organisation unit',
);
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
  badSubject:
    "Name one Patient: patient, subject or subject:Patient, as Patient/{id}, {id} or this server's URL of it.",
  badIdentifier: 'The identifier must be SYSTEM|VALUE, |VALUE or VALUE, with a value.',
  badCursor: 'The paging cursor is not one this server gave.',
  badLastUpdated:
    '_lastUpdated must be gt, ge, lt or le and an instant with its zone: gt2026-11-22T09:00:00Z.',
  badSort: '_sort may be date, -date or _lastUpdated.',
  badCount: '_count must be a whole number, 0 or more.',
  badSummary: '_summary may be count (the total alone) or false.',
  unknownParameters: 'This search does not support the parameters',
  repeatedParameter: (name: string) => `${name} may be given once.`,
  notAcceptable:
    'This server answers application/fhir+json (or application/json) only; _format may be json.',
  unauthenticated: 'Sign in, or send an API token: Authorization: Bearer <token>.',
  invalidToken: 'The API token is not valid (unknown, or revoked).',
  forbidden: 'You do not have permission to do this.',
  unavailable: 'The database is unavailable; try again shortly.',
  unexpected: 'The request could not be completed.',
} as const;
