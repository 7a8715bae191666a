import type {
  Bundle,
  BundleEntry,
  CapabilityStatement,
  Condition as FhirCondition,
  Observation,
  Organization,
  Patient,
  RiskAssessment,
} from '@medplum/fhirtypes';
import { CONDITIONS } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import { fhirDefaultPageSize, fhirMaxPageSize, fhirTexts } from '../../shared/api/fhir.ts';
import { bulkExportDefinitions } from '../../shared/api/fhir-bulk.ts';
import { narrowScope, scopeHolds, type Scope } from '../auth/scope.ts';
import type { AppContext } from '../context.ts';
import { exportsRepository } from '../db/repositories/exports.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import {
  fhirReadsRepository,
  type AssessmentOrder,
  type AssessmentPosition,
  type LastUpdatedBound,
} from '../db/repositories/fhir-reads.ts';
import {
  patientRecordsRepository,
  type PatientRecordRow,
} from '../db/repositories/patient-records.ts';
import { AppError } from '../errors.ts';
import { productVersion } from '../version.ts';
import { getLiveAssessment } from './assessments.ts';
import { recordAudit, type AuditEntry } from './audit.ts';
import {
  assessmentResources,
  organizationResource,
  patientRecordResource,
  type LinkedPatient,
} from './fhir.ts';

/**
 * Who reads: a signed-in user, an API token or a FHIR client (as the audit trail names it), from
 * where, and the units whose records they may read (issue 36): a record outside them is answered
 * as if it did not exist.
 */
export interface FhirReader {
  actor: AuditEntry['actor'];
  address: string;
  scope: Scope;
}

const uuid = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const recordIdPattern = new RegExp(`^${uuid}$`);
const assessmentPartPattern = new RegExp(`^(${uuid})\\.([A-Za-z0-9]+)$`);

function notFound(): AppError {
  return new AppError(404, 'not_found', fhirTexts.notFound);
}

/** `{assessment}.{part}` split, or undefined for an id of another form. */
function assessmentPart(id: string): { assessmentId: string; part: string } | undefined {
  const match = assessmentPartPattern.exec(id);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { assessmentId: match[1], part: match[2] };
}

function liveRecord(
  context: AppContext,
  scope: Scope,
  id: string,
): Promise<PatientRecordRow | undefined> {
  return fhirReadsRepository.livePatientRecord(context.database.db, scope, id);
}

function linkedPatient(context: AppContext, record: PatientRecordRow): LinkedPatient {
  return {
    record: {
      id: record.id,
      number: record.number,
      name: record.name,
      birthDate: record.birth_date,
      gender: record.gender,
      orgUnitId: record.org_unit_id,
      version: record.version,
      updatedAt: record.updated_at,
    },
    identifierSystem: context.config.patientIdSystem,
    included: true,
  };
}

/**
 * The live assessment and its resources as the FHIR export makes them (references by type and
 * id, with the ids of the bulk file). An assessment whose patient record is
 * deleted is no longer served: its subject would be a Patient the API no longer shows.
 */
async function liveAssessmentResources(context: AppContext, scope: Scope, assessmentId: string) {
  const db = context.database.db;
  if (!(await exportsRepository.assessmentWithinScope(db, scope, assessmentId))) throw notFound();
  let assessment: Assessment;
  try {
    assessment = await getLiveAssessment(context, scope, assessmentId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw notFound();
    throw error;
  }
  let linked: LinkedPatient | undefined;
  if (assessment.patient !== null) {
    const record = await liveRecord(context, scope, assessment.patient.id);
    if (record === undefined) throw notFound();
    linked = linkedPatient(context, record);
  }
  const [reviews, review] = await Promise.all([
    exportsRepository.reviews(db, scope, assessment.id),
    fhirReadsRepository.reviewRevision(db, scope, assessment.id),
  ]);
  return {
    assessment,
    resources: assessmentResources(assessment, reviews, review, linked),
  };
}

async function auditRead(
  context: AppContext,
  reader: FhirReader,
  target: { type: string; id: string },
): Promise<void> {
  await recordAudit(context.database.db, {
    at: context.now(),
    actor: reader.actor,
    action: 'fhir_read',
    target,
    address: reader.address,
  });
}

const isRiskAssessment = (resource: { resourceType: string }): resource is RiskAssessment =>
  resource.resourceType === 'RiskAssessment';

/** The resources of an assessment the API reads by `{assessment}.{part}`, by type. */
export interface AssessmentPartResources {
  RiskAssessment: RiskAssessment;
  Observation: Observation;
  Condition: FhirCondition;
}

/**
 * One resource of a live assessment, by its API id: a condition's RiskAssessment, or what its
 * references point at (the measurements' Observations in its basis, the diagnosed Condition).
 */
export async function readAssessmentPart<T extends keyof AssessmentPartResources>(
  context: AppContext,
  reader: FhirReader,
  resourceType: T,
  id: string,
): Promise<AssessmentPartResources[T]> {
  const parsed = assessmentPart(id);
  if (parsed === undefined) throw notFound();
  const { resources } = await liveAssessmentResources(context, reader.scope, parsed.assessmentId);
  const found = resources.find(
    (resource): resource is AssessmentPartResources[T] =>
      resource.resourceType === resourceType && resource.id === id,
  );
  if (found === undefined) throw notFound();
  await auditRead(context, reader, { type: resourceType, id });
  return found;
}

export async function readPatient(
  context: AppContext,
  reader: FhirReader,
  id: string,
): Promise<Patient> {
  let patient: Patient | undefined;
  if (recordIdPattern.test(id)) {
    const record = await liveRecord(context, reader.scope, id);
    if (record !== undefined) {
      const linked = linkedPatient(context, record);
      patient = patientRecordResource(linked.record, linked.identifierSystem);
    }
  } else {
    const parsed = assessmentPart(id);
    if (parsed?.part === 'patient') {
      const { assessment, resources } = await liveAssessmentResources(
        context,
        reader.scope,
        parsed.assessmentId,
      );
      // An assessment of a patient record has the record's Patient, under the record's id.
      if (assessment.patient === null) {
        patient = resources.find(
          (resource): resource is Patient => resource.resourceType === 'Patient',
        );
      }
    }
  }
  if (patient?.id !== id) throw notFound();
  await auditRead(context, reader, { type: 'Patient', id });
  return patient;
}

/**
 * The Organization of an organisation unit of the reader's scope, closed ones included
 * (inactive): a Patient's managingOrganization and an Organization's partOf name them. A unit
 * outside the scope (the one above it, a sibling) is answered as if it did not exist. Audited as
 * fhir_read.
 */
export async function readOrganization(
  context: AppContext,
  reader: FhirReader,
  id: string,
): Promise<Organization> {
  const unit = scopeHolds(reader.scope, id)
    ? await orgUnitsRepository.findById(context.database.db, id)
    : undefined;
  if (unit === undefined) throw notFound();
  await auditRead(context, reader, { type: 'Organization', id });
  return organizationResource(unit, context.config.orgUnitIdSystem);
}

/** Where a page begins: an assessment's position and how many of its RiskAssessments went before. */
interface SearchCursor extends AssessmentPosition {
  skip: number;
}

function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id, cursor.skip])).toString('base64url');
}

const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;

function decodeCursor(text: string): SearchCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    typeof parsed[0] === 'string' &&
    instantPattern.test(parsed[0]) &&
    !Number.isNaN(Date.parse(parsed[0])) &&
    typeof parsed[1] === 'string' &&
    recordIdPattern.test(parsed[1]) &&
    Number.isInteger(parsed[2]) &&
    (parsed[2] as number) >= 0 &&
    (parsed[2] as number) < CONDITIONS.length
  ) {
    return { key: parsed[0], id: parsed[1], skip: parsed[2] as number };
  }
  throw new AppError(400, 'validation_failed', fhirTexts.badCursor, '_cursor');
}

/** How a search treats a parameter it does not know, as the request's `Prefer: handling=` asks. */
export type SearchHandling = 'strict' | 'lenient';

export interface SearchRequest {
  /** The base of the server's FHIR URLs, `https://host/fhir`. */
  base: string;
  /** The search's parameters, from the query or a `POST [type]/_search` form. */
  parameters: URLSearchParams;
  handling: SearchHandling;
}

/**
 * Parameters every search understands beside its own: the format, the paging cursor, and `unit`,
 * which narrows the search to a unit of the reader's scope and those below it (the guard reads it
 * from the query, searchScope from a form as well).
 */
const commonParameters = new Set(['_format', '_cursor', 'unit']);

/**
 * The scope a search reads: the reader's, narrowed to `unit` and the units below it when given
 * (404 for a unit outside the scope), with the parameter as the search's links carry it.
 */
async function searchScope(
  context: AppContext,
  reader: FhirReader,
  parameters: URLSearchParams,
): Promise<{ scope: Scope; used: Array<[string, string]> }> {
  const unit = single(parameters, 'unit');
  if (unit === undefined || unit === '') return { scope: reader.scope, used: [] };
  return {
    scope: await narrowScope(context.database.db, reader.scope, unit),
    used: [['unit', unit]],
  };
}

/**
 * The parameters a search did not use: refused (400) when the client asked for strict handling;
 * else left out, and so out of the Bundle's self link, which shows what the search used.
 */
function refuseUnknown(request: SearchRequest, known: ReadonlySet<string>): void {
  if (request.handling !== 'strict') return;
  const unknown = [...new Set(request.parameters.keys())].filter(
    (name) => !known.has(name) && !commonParameters.has(name),
  );
  if (unknown.length > 0) {
    throw new AppError(
      400,
      'validation_failed',
      `${fhirTexts.unknownParameters} ${unknown.sort().join(', ')}.`,
      unknown[0],
    );
  }
}

/** The one value of a parameter that may be given once; 400 when it is given more often. */
function single(parameters: URLSearchParams, name: string): string | undefined {
  const values = parameters.getAll(name);
  if (values.length > 1) {
    throw new AppError(400, 'validation_failed', fhirTexts.repeatedParameter(name), name);
  }
  return values[0];
}

function badSubject(name: string): AppError {
  return new AppError(400, 'validation_failed', fhirTexts.badSubject, name);
}

const patientIdPattern = /^[A-Za-z0-9\-.]{1,64}$/;

/**
 * The Patient id a reference parameter names: `Patient/{id}`, `{base}/Patient/{id}` (this
 * server's own URL) or the id alone; for `subject:Patient`, the id alone or `Patient/{id}`.
 */
function referencedPatientId(name: string, value: string, base: string): string {
  let id = value;
  if (id.startsWith(`${base}/Patient/`)) id = id.slice(`${base}/Patient/`.length);
  else if (id.startsWith('Patient/')) id = id.slice('Patient/'.length);
  if (!patientIdPattern.test(id)) throw badSubject(name);
  return id;
}

/** The Patient a RiskAssessment search names, by `patient`, `subject` or `subject:Patient`. */
function searchedPatient(request: SearchRequest): string {
  const named = ['patient', 'subject', 'subject:Patient'].flatMap((name) =>
    request.parameters.getAll(name).map((value) => referencedPatientId(name, value, request.base)),
  );
  const ids = new Set(named);
  if (ids.size === 0) throw badSubject('subject');
  // Two different Patients at once match nothing a Patient's search could give: refused.
  if (ids.size > 1) throw badSubject('subject');
  return named[0] ?? '';
}

/** `_lastUpdated=gt…` and the like, each an instant with its zone; any other form is a 400. */
function lastUpdatedBounds(parameters: URLSearchParams): LastUpdatedBound[] {
  return parameters.getAll('_lastUpdated').map((text) => {
    const match =
      /^(gt|ge|lt|le)(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}))$/.exec(
        text,
      );
    const prefix = match?.[1] as LastUpdatedBound['prefix'] | undefined;
    const instant = match?.[2] === undefined ? Number.NaN : Date.parse(match[2]);
    if (prefix === undefined || Number.isNaN(instant)) {
      throw new AppError(400, 'validation_failed', fhirTexts.badLastUpdated, '_lastUpdated');
    }
    return { prefix, value: new Date(instant).toISOString() };
  });
}

const sortOrders: ReadonlySet<string> = new Set(['date', '-date', '_lastUpdated']);

/** `_count` as served: 20 unless given, at most 100 (FHIR lets a server give fewer). */
function pageSize(parameters: URLSearchParams): number {
  const text = single(parameters, '_count');
  if (text === undefined) return fhirDefaultPageSize;
  if (!/^\d{1,9}$/.test(text)) {
    throw new AppError(400, 'validation_failed', fhirTexts.badCount, '_count');
  }
  return Math.min(Number(text), fhirMaxPageSize);
}

/** `_summary=count` (the total alone) or `false` (the default); another value is a 400. */
function summaryCount(parameters: URLSearchParams): boolean {
  const summary = single(parameters, '_summary');
  if (summary === undefined || summary === 'false') return false;
  if (summary === 'count') return true;
  throw new AppError(400, 'validation_failed', fhirTexts.badSummary, '_summary');
}

function searchset(
  base: string,
  links: { self: string; next: string | undefined },
  total: number,
  entries: Array<RiskAssessment | Patient>,
): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total,
    link: [
      { relation: 'self', url: links.self },
      ...(links.next === undefined ? [] : [{ relation: 'next', url: links.next }]),
    ],
    ...(entries.length === 0
      ? {}
      : {
          entry: entries.map((resource): BundleEntry => ({
            fullUrl: `${base}/${resource.resourceType}/${resource.id ?? ''}`,
            resource,
            search: { mode: 'match' },
          })),
        }),
  };
}

/** A search's URL from the parameters it used, in the order given. */
function searchUrl(base: string, type: string, used: Array<[string, string]>): string {
  return `${base}/${type}?${new URLSearchParams(used).toString()}`;
}

/** The live assessments a searched Patient has, as the paging reads them. */
interface SearchSubject {
  /** From `from` (itself included) on, in the search's order. */
  positionsFrom(from: AssessmentPosition | undefined, limit: number): Promise<AssessmentPosition[]>;
  /** How many RiskAssessments match in all. */
  total(): Promise<number>;
}

function withinBounds(value: string, bounds: LastUpdatedBound[]): boolean {
  return bounds.every((bound) =>
    bound.prefix === 'gt'
      ? value > bound.value
      : bound.prefix === 'ge'
        ? value >= bound.value
        : bound.prefix === 'lt'
          ? value < bound.value
          : value <= bound.value,
  );
}

/**
 * A patient record's Patient has the record's live assessments; an assessment's own Patient
 * (`{assessment}.patient`), that one assessment while it is live and names no record; any
 * other id, none. Only assessments last updated within the bounds match.
 */
async function searchSubject(
  context: AppContext,
  scope: Scope,
  patientId: string,
  query: { order: AssessmentOrder; bounds: LastUpdatedBound[] },
): Promise<SearchSubject> {
  const db = context.database.db;
  const none: SearchSubject = { positionsFrom: async () => [], total: async () => 0 };
  if (recordIdPattern.test(patientId)) {
    const record = await liveRecord(context, scope, patientId);
    if (record === undefined) return none;
    return {
      positionsFrom: (from, limit) =>
        fhirReadsRepository.liveAssessmentsFrom(db, scope, record.id, query, from, limit),
      total: () => fhirReadsRepository.liveResultCount(db, scope, record.id, query.bounds),
    };
  }
  const parsed = assessmentPart(patientId);
  if (parsed?.part !== 'patient') return none;
  if (!(await exportsRepository.assessmentWithinScope(db, scope, parsed.assessmentId))) {
    return none;
  }
  let assessment: Assessment;
  try {
    assessment = await getLiveAssessment(context, scope, parsed.assessmentId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return none;
    throw error;
  }
  if (assessment.patient !== null) return none;
  const review = await fhirReadsRepository.reviewRevision(db, scope, assessment.id);
  const lastUpdated =
    review.at !== null && review.at > assessment.updatedAt ? review.at : assessment.updatedAt;
  if (!withinBounds(lastUpdated, query.bounds)) return none;
  const position = {
    key: query.order === '_lastUpdated' ? lastUpdated : assessment.createdAt,
    id: assessment.id,
  };
  return {
    // One assessment: a cursor can only be within it.
    positionsFrom: async (from) =>
      from === undefined || from.id === position.id ? [position] : [],
    total: async () => assessment.results.conditions.length,
  };
}

const riskAssessmentParameters: ReadonlySet<string> = new Set([
  'patient',
  'subject',
  'subject:Patient',
  '_lastUpdated',
  '_sort',
  '_count',
  '_summary',
]);

/**
 * The RiskAssessments of a Patient (`patient`, `subject` or `subject:Patient`), last updated
 * within `_lastUpdated`'s bounds, in `_sort`'s order (newest assessment first unless asked;
 * within one, in the conditions' order), `_count` a page, or their number alone
 * (`_summary=count`). The next link carries an opaque cursor: the assessment the next page
 * starts in and how many of its RiskAssessments were already given. The self link shows the
 * parameters used, `_count` as served.
 */
export async function searchRiskAssessments(
  context: AppContext,
  reader: FhirReader,
  request: SearchRequest,
): Promise<Bundle> {
  const { parameters } = request;
  refuseUnknown(request, riskAssessmentParameters);
  const patientId = searchedPatient(request);
  const bounds = lastUpdatedBounds(parameters);
  const sort = single(parameters, '_sort');
  if (sort !== undefined && !sortOrders.has(sort)) {
    throw new AppError(400, 'validation_failed', fhirTexts.badSort, '_sort');
  }
  const order = (sort ?? '-date') as AssessmentOrder;
  const onlyTotal = summaryCount(parameters);
  const count = onlyTotal ? 0 : pageSize(parameters);
  const cursorText = single(parameters, '_cursor');
  const cursor = cursorText === undefined ? undefined : decodeCursor(cursorText);

  const { scope, used: unitUsed } = await searchScope(context, reader, parameters);
  const subject = await searchSubject(context, scope, patientId, { order, bounds });
  const page: RiskAssessment[] = [];
  let next: SearchCursor | undefined;
  // Each assessment has a RiskAssessment per condition: a batch of assessments about fills a
  // page, and one more tells whether another page follows.
  const batch = Math.ceil(count / CONDITIONS.length) + 1;
  let from: SearchCursor | undefined = cursor;
  filling: while (count > 0) {
    const positions = await subject.positionsFrom(from, batch);
    for (const position of positions) {
      const skip = position.id === from?.id ? from.skip : 0;
      const { resources } = await liveAssessmentResources(context, scope, position.id);
      const risks = resources.filter(isRiskAssessment);
      for (let index = skip; index < risks.length; index++) {
        const risk = risks[index];
        if (risk === undefined) continue;
        if (page.length === count) {
          next = { ...position, skip: index };
          break filling;
        }
        page.push(risk);
      }
    }
    const last = positions.at(-1);
    if (positions.length < batch || last === undefined) break;
    // The next batch starts at the last assessment read, all of whose entries were taken.
    from = { ...last, skip: Number.POSITIVE_INFINITY };
  }
  const total = await subject.total();

  await auditRead(context, reader, { type: 'RiskAssessment', id: `?subject=Patient/${patientId}` });
  const used: Array<[string, string]> = [
    ['subject', `Patient/${patientId}`],
    ...unitUsed,
    ...bounds.map((bound): [string, string] => ['_lastUpdated', `${bound.prefix}${bound.value}`]),
    ...(sort === undefined ? [] : [['_sort', sort] as [string, string]]),
    onlyTotal ? ['_summary', 'count'] : ['_count', String(count)],
  ];
  return searchset(
    request.base,
    {
      self: searchUrl(request.base, 'RiskAssessment', [
        ...used,
        ...(cursorText === undefined ? [] : [['_cursor', cursorText] as [string, string]]),
      ]),
      next:
        next === undefined
          ? undefined
          : searchUrl(request.base, 'RiskAssessment', [...used, ['_cursor', encodeCursor(next)]]),
    },
    total,
    page,
  );
}

/**
 * The live patient record whose number is the identifier's value, compared without case, when
 * the identifier names the patient number system or none: `SYSTEM|VALUE` or `VALUE`. `|VALUE`
 * asks for an identifier without a system, which no Patient here has.
 */
export async function searchPatients(
  context: AppContext,
  reader: FhirReader,
  request: SearchRequest,
): Promise<Bundle> {
  refuseUnknown(request, new Set(['identifier']));
  const identifier = single(request.parameters, 'identifier');
  if (identifier === undefined || identifier.length > 300) {
    throw new AppError(400, 'validation_failed', fhirTexts.badIdentifier, 'identifier');
  }
  const bar = identifier.indexOf('|');
  const system = bar === -1 ? undefined : identifier.slice(0, bar);
  const value = bar === -1 ? identifier : identifier.slice(bar + 1);
  if (value === '' || value.includes('|')) {
    throw new AppError(400, 'validation_failed', fhirTexts.badIdentifier, 'identifier');
  }
  const { scope, used: unitUsed } = await searchScope(context, reader, request.parameters);
  const matchesSystem = system === undefined || system === context.config.patientIdSystem;
  // Numbers are unique within a unit: a scope of several units may hold the number more than once.
  const records = matchesSystem
    ? await patientRecordsRepository.liveByNumberWithin(context.database.db, scope, value)
    : [];
  const patients = records.map((record) =>
    patientRecordResource(linkedPatient(context, record).record, context.config.patientIdSystem),
  );
  // The identifier's value is a patient number: the trail records what was found, never it.
  await auditRead(context, reader, {
    type: 'Patient',
    id: records.length === 0 ? '?identifier' : records.map((record) => record.id).join(','),
  });
  return searchset(
    request.base,
    {
      self: searchUrl(request.base, 'Patient', [['identifier', identifier], ...unitUsed]),
      next: undefined,
    },
    patients.length,
    patients,
  );
}

const searchParameterDefinition = (name: string) => `http://hl7.org/fhir/SearchParameter/${name}`;

/** What the server supports, as a CapabilityStatement (FHIR R4, JSON, read and search). */
export function capabilityStatement(
  base: string,
  tokenEndpoint: string,
  now: Date,
): CapabilityStatement {
  const readAndSearch = [{ code: 'read' as const }, { code: 'search-type' as const }];
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: now.toISOString(),
    kind: 'instance',
    software: { name: 'Chronic Disease Risk Assessment System', version: productVersion },
    implementation: { description: 'FHIR R4 read API of the risk assessments', url: base },
    // FHIR Bulk Data Access 2.0: the export operations below (routes/fhir-bulk.ts).
    instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data'],
    fhirVersion: '4.0.1',
    format: ['json'],
    rest: [
      {
        mode: 'server',
        security: {
          cors: false,
          service: [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
                  code: 'SMART-on-FHIR',
                },
              ],
            },
          ],
          // SMART's oauth-uris: where a backend service asks for its token (the discovery
          // document at .well-known/smart-configuration says the same).
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [{ url: 'token', valueUri: tokenEndpoint }],
            },
          ],
          description:
            'A signed-in session (its cookie); an access token from the SMART Backend Services token endpoint (client credentials with a signed JWT, system scopes); or an API token an administrator made. Every token reads only: Authorization: Bearer <token>.',
        },
        resource: [
          {
            type: 'RiskAssessment',
            versioning: 'versioned',
            interaction: readAndSearch,
            documentation:
              "Search by GET or POST [type]/_search (form-encoded). _sort: date, -date (the default) or _lastUpdated; _count: 20 by default, at most 100; _summary=count; unit (an Organization id) narrows it to that unit and those below, within the reader's scope, and stays in the self and next links. Unknown parameters are refused with Prefer: handling=strict, else ignored and left out of the self link.",
            searchParam: [
              {
                name: 'patient',
                definition: searchParameterDefinition('clinical-patient'),
                type: 'reference',
                documentation:
                  "The Patient assessed: {id}, Patient/{id} or this server's URL of it.",
              },
              {
                name: 'subject',
                definition: searchParameterDefinition('RiskAssessment-subject'),
                type: 'reference',
                documentation:
                  "The Patient assessed: Patient/{id}, {id} or this server's URL of it; also subject:Patient={id}.",
              },
              {
                name: '_lastUpdated',
                definition: searchParameterDefinition('Resource-lastUpdated'),
                type: 'date',
                documentation: 'gt, ge, lt or le and an instant with its zone; repeat for a range.',
              },
            ],
          },
          {
            type: 'Observation',
            versioning: 'versioned',
            interaction: [{ code: 'read' }],
            documentation:
              "The measurements a RiskAssessment's basis names: {assessment id}.age, .height, .weight or .bmi.",
          },
          {
            type: 'Condition',
            versioning: 'versioned',
            interaction: [{ code: 'read' }],
            documentation:
              'A condition diagnosed at an assessment, which its RiskAssessment names: {assessment id}.{condition}.',
          },
          {
            type: 'Patient',
            versioning: 'versioned',
            interaction: readAndSearch,
            documentation:
              "unit (an Organization id) narrows the search to that unit and those below, within the reader's scope.",
            searchParam: [
              {
                name: 'identifier',
                definition: searchParameterDefinition('Patient-identifier'),
                type: 'token',
                documentation:
                  'SYSTEM|VALUE or VALUE: the patient number (compared without case) under the patient number system.',
              },
            ],
            operation: [{ name: 'export', definition: bulkExportDefinitions.patient }],
          },
          {
            type: 'Group',
            operation: [{ name: 'export', definition: bulkExportDefinitions.group }],
            documentation:
              "A Group per organisation unit, of the unit's id: its export holds the records of the unit and the units below it, within the caller's units. Groups are not read or searched.",
          },
          {
            type: 'Organization',
            versioning: 'versioned',
            interaction: [{ code: 'read' }],
            documentation:
              "An organisation unit (a facility, district, region or the country): its code under TRIAGE_ORG_UNIT_ID_SYSTEM, partOf its parent unit; inactive once closed. A Patient's managingOrganization names it. Only the units of the reader's scope are read.",
          },
        ],
        operation: [{ name: 'export', definition: bulkExportDefinitions.system }],
      },
    ],
  };
}
