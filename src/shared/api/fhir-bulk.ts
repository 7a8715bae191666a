import { z } from 'zod';

/**
 * FHIR Bulk Data Access 2.0 (hl7.org/fhir/uv/bulkdata, issue 38): the `$export` kick-offs, the
 * job's status address and its files, as the routes register them, and the diagnostics of their
 * OperationOutcomes.
 */
export const bulkExportRoutes = {
  system: '/fhir/$export',
  patient: '/fhir/Patient/$export',
  group: '/fhir/Group/:id/$export',
  status: '/fhir/bulk-status/:jobId',
  file: '/fhir/bulk-files/:jobId/:file',
} as const;

/** The route patterns of bulk export: their access is decided by the service, per job and type. */
export const bulkExportRoutePatterns: ReadonlySet<string> = new Set(
  Object.values(bulkExportRoutes),
);

/** The IG's canonical OperationDefinitions, which the CapabilityStatement declares. */
export const bulkExportDefinitions = {
  system: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export',
  patient: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export',
  group: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export',
} as const;

/** `_outputFormat` values taken: the IG's full and abbreviated names of NDJSON. */
export const bulkOutputFormats: ReadonlySet<string> = new Set([
  'application/fhir+ndjson',
  'application/ndjson',
  'ndjson',
]);

const kickOffParam = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(description);

export const bulkKickOffQuerySchema = z.looseObject({
  _type: kickOffParam(
    'Resource types, comma-separated: Patient, Observation, Condition, RiskAssessment, Organization (all that the caller may read unless given)',
  ),
  _since: kickOffParam('An instant with its zone: only resources last updated after it'),
  _outputFormat: kickOffParam(
    'application/fhir+ndjson (the default), application/ndjson or ndjson',
  ),
  _format: z.string().optional(),
});

export const bulkJobParamsSchema = z.object({
  jobId: z.string().regex(/^[0-9a-f-]{36}$/, 'not a job id'),
});

export const bulkFileParamsSchema = z.object({
  jobId: z.string().regex(/^[0-9a-f-]{36}$/, 'not a job id'),
  file: z.string().regex(/^[A-Za-z]{1,64}-\d{1,6}\.ndjson$/, 'not a file name'),
});

export const bulkManifestSchema = z
  .looseObject({
    transactionTime: z.string(),
    request: z.string(),
    requiresAccessToken: z.boolean(),
    output: z.array(z.looseObject({ type: z.string(), url: z.string(), count: z.number() })),
    error: z.array(z.looseObject({ type: z.string(), url: z.string(), count: z.number() })),
  })
  .describe('The complete export: application/json manifest of its files');

export const bulkTexts = {
  respondAsync: 'A bulk export runs in the background: send Prefer: respond-async.',
  badType:
    '_type names resource types this server serves, comma-separated: Patient, Observation, Condition, RiskAssessment, Organization.',
  badSince: '_since must be an instant with its zone: 2026-11-22T09:00:00Z.',
  badOutputFormat: '_outputFormat may be application/fhir+ndjson, application/ndjson or ndjson.',
  unknownParameters: 'This export does not support the parameters',
  typeNotAllowed: "The access token's scope does not allow exporting",
  noTypeAllowed: "The access token's scope allows exporting no resource type.",
  failed: 'The export could not be completed.',
  interrupted: 'The export was interrupted too often and was stopped; start a new one.',
} as const;
