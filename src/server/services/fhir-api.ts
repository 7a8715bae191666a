import type {
  Bundle,
  BundleEntry,
  CapabilityStatement,
  Condition as FhirCondition,
  Observation,
  Patient,
  RiskAssessment,
} from '@medplum/fhirtypes';
import { CONDITIONS } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import { fhirTexts } from '../../shared/api/fhir.ts';
import type { AppContext } from '../context.ts';
import { exportsRepository } from '../db/repositories/exports.ts';
import { fhirReadsRepository, type AssessmentPosition } from '../db/repositories/fhir-reads.ts';
import {
  patientRecordsRepository,
  type PatientRecordRow,
} from '../db/repositories/patient-records.ts';
import { AppError } from '../errors.ts';
import { productVersion } from '../version.ts';
import { getLiveAssessment } from './assessments.ts';
import { recordAudit, type AuditEntry } from './audit.ts';
import { assessmentResources, patientRecordResource, type LinkedPatient } from './fhir.ts';

/** Who reads: a signed-in user or an API token (as the audit trail names it), and from where. */
export interface FhirReader {
  actor: AuditEntry['actor'];
  address: string;
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

async function liveRecord(context: AppContext, id: string): Promise<PatientRecordRow | undefined> {
  const record = await patientRecordsRepository.find(context.database.db, id);
  return record === undefined || record.deleted_at !== null ? undefined : record;
}

function linkedPatient(context: AppContext, record: PatientRecordRow): LinkedPatient {
  return {
    record: {
      id: record.id,
      number: record.number,
      name: record.name,
      birthDate: record.birth_date,
      gender: record.gender,
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
async function liveAssessmentResources(context: AppContext, assessmentId: string) {
  let assessment: Assessment;
  try {
    assessment = await getLiveAssessment(context, assessmentId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw notFound();
    throw error;
  }
  let linked: LinkedPatient | undefined;
  if (assessment.patient !== null) {
    const record = await liveRecord(context, assessment.patient.id);
    if (record === undefined) throw notFound();
    linked = linkedPatient(context, record);
  }
  const [reviews, review] = await Promise.all([
    exportsRepository.reviews(context.database.db, assessment.id),
    fhirReadsRepository.reviewRevision(context.database.db, assessment.id),
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
  const { resources } = await liveAssessmentResources(context, parsed.assessmentId);
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
    const record = await liveRecord(context, id);
    if (record !== undefined) {
      const linked = linkedPatient(context, record);
      patient = patientRecordResource(linked.record, linked.identifierSystem);
    }
  } else {
    const parsed = assessmentPart(id);
    if (parsed?.part === 'patient') {
      const { assessment, resources } = await liveAssessmentResources(context, parsed.assessmentId);
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

/** Where a page begins: an assessment's position and how many of its RiskAssessments went before. */
interface SearchCursor extends AssessmentPosition {
  skip: number;
}

function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id, cursor.skip])).toString(
    'base64url',
  );
}

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
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/.test(parsed[0]) &&
    !Number.isNaN(Date.parse(parsed[0])) &&
    typeof parsed[1] === 'string' &&
    recordIdPattern.test(parsed[1]) &&
    Number.isInteger(parsed[2]) &&
    (parsed[2] as number) >= 0 &&
    (parsed[2] as number) < CONDITIONS.length
  ) {
    return { createdAt: parsed[0], id: parsed[1], skip: parsed[2] as number };
  }
  throw new AppError(400, 'validation_failed', fhirTexts.badCursor, '_cursor');
}

/** The id a `subject` parameter names: `Patient/{id}` or the id alone. */
function subjectPatientId(subject: string): string {
  const id = subject.startsWith('Patient/') ? subject.slice('Patient/'.length) : subject;
  if (!/^[A-Za-z0-9\-.]{1,64}$/.test(id)) {
    throw new AppError(400, 'validation_failed', fhirTexts.badSubject, 'subject');
  }
  return id;
}

export interface SearchRequest {
  /** The base of the server's FHIR URLs, `https://host/fhir`. */
  base: string;
  /** The search's own URL, for the Bundle's self link. */
  selfUrl: string;
}

function searchset(
  request: SearchRequest,
  total: number,
  entries: Array<RiskAssessment | Patient>,
  next: string | undefined,
): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total,
    link: [
      { relation: 'self', url: request.selfUrl },
      ...(next === undefined ? [] : [{ relation: 'next', url: next }]),
    ],
    ...(entries.length === 0
      ? {}
      : {
          entry: entries.map((resource): BundleEntry => ({
            fullUrl: `${request.base}/${resource.resourceType}/${resource.id ?? ''}`,
            resource,
            search: { mode: 'match' },
          })),
        }),
  };
}

/** The live assessments a searched Patient has, as the paging reads them. */
interface SearchSubject {
  /** From `from` (itself included) on, newest first. */
  positionsFrom(from: AssessmentPosition | undefined, limit: number): Promise<AssessmentPosition[]>;
  /** How many RiskAssessments match in all. */
  total(): Promise<number>;
}

/**
 * A patient record's Patient has the record's live assessments; an assessment's own Patient
 * (`{assessment}.patient`), that one assessment while it is live and names no record; any
 * other id, none.
 */
async function searchSubject(context: AppContext, patientId: string): Promise<SearchSubject> {
  const db = context.database.db;
  const none: SearchSubject = { positionsFrom: async () => [], total: async () => 0 };
  if (recordIdPattern.test(patientId)) {
    const record = await liveRecord(context, patientId);
    if (record === undefined) return none;
    return {
      positionsFrom: (from, limit) =>
        fhirReadsRepository.liveAssessmentsFrom(db, record.id, from, limit),
      total: () => fhirReadsRepository.liveResultCount(db, record.id),
    };
  }
  const parsed = assessmentPart(patientId);
  if (parsed?.part !== 'patient') return none;
  let assessment: Assessment;
  try {
    assessment = await getLiveAssessment(context, parsed.assessmentId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return none;
    throw error;
  }
  if (assessment.patient !== null) return none;
  const position = { createdAt: assessment.createdAt, id: assessment.id };
  return {
    positionsFrom: async (from) =>
      from === undefined ||
      position.createdAt < from.createdAt ||
      (position.createdAt === from.createdAt && position.id <= from.id)
        ? [position]
        : [],
    total: async () => assessment.results.conditions.length,
  };
}

/**
 * The RiskAssessments of a Patient, newest assessment first (within one, in the conditions'
 * order), `count` a page; the next link carries an opaque cursor: the assessment the next page
 * starts in and how many of its RiskAssessments were already given.
 */
export async function searchRiskAssessments(
  context: AppContext,
  reader: FhirReader,
  query: { subject: string; count: number; cursor: string | undefined },
  request: SearchRequest,
): Promise<Bundle> {
  const patientId = subjectPatientId(query.subject);
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const subject = await searchSubject(context, patientId);
  const page: RiskAssessment[] = [];
  let next: SearchCursor | undefined;
  // Each assessment has a RiskAssessment per condition: a batch of assessments about fills a
  // page, and one more tells whether another page follows.
  const batch = Math.ceil(query.count / CONDITIONS.length) + 1;
  let from: SearchCursor | undefined = cursor;
  filling: while (query.count > 0) {
    const positions = await subject.positionsFrom(from, batch);
    for (const position of positions) {
      const skip = position.id === from?.id ? from.skip : 0;
      const { resources } = await liveAssessmentResources(context, position.id);
      const risks = resources.filter(isRiskAssessment);
      for (let index = skip; index < risks.length; index++) {
        const risk = risks[index];
        if (risk === undefined) continue;
        if (page.length === query.count) {
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
  const nextUrl =
    next === undefined
      ? undefined
      : `${request.base}/RiskAssessment?${new URLSearchParams({
          subject: `Patient/${patientId}`,
          _count: String(query.count),
          _cursor: encodeCursor(next),
        }).toString()}`;
  return searchset(request, total, page, nextUrl);
}

/**
 * The live patient record whose number is the identifier's value, compared without case, when
 * the identifier names the patient number system or none: `SYSTEM|VALUE` or `VALUE`. `|VALUE`
 * asks for an identifier without a system, which no Patient here has.
 */
export async function searchPatients(
  context: AppContext,
  reader: FhirReader,
  identifier: string,
  request: SearchRequest,
): Promise<Bundle> {
  const bar = identifier.indexOf('|');
  const system = bar === -1 ? undefined : identifier.slice(0, bar);
  const value = bar === -1 ? identifier : identifier.slice(bar + 1);
  if (value === '' || value.includes('|')) {
    throw new AppError(400, 'validation_failed', fhirTexts.badIdentifier, 'identifier');
  }
  const matchesSystem = system === undefined || system === context.config.patientIdSystem;
  const record = matchesSystem
    ? await patientRecordsRepository.findLiveByNumber(context.database.db, value)
    : undefined;
  const patients =
    record === undefined
      ? []
      : [
          patientRecordResource(
            linkedPatient(context, record).record,
            context.config.patientIdSystem,
          ),
        ];
  // The identifier's value is a patient number: the trail records what was found, never it.
  await auditRead(context, reader, {
    type: 'Patient',
    id: record === undefined ? '?identifier' : record.id,
  });
  return searchset(request, patients.length, patients, undefined);
}

/** What the server supports, as a CapabilityStatement (FHIR R4, JSON, read and search). */
export function capabilityStatement(base: string, now: Date): CapabilityStatement {
  const readAndSearch = [{ code: 'read' as const }, { code: 'search-type' as const }];
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: now.toISOString(),
    kind: 'instance',
    software: { name: 'Chronic Disease Risk Assessment System', version: productVersion },
    implementation: { description: 'FHIR R4 read API of the risk assessments', url: base },
    fhirVersion: '4.0.1',
    format: ['json'],
    rest: [
      {
        mode: 'server',
        security: {
          cors: false,
          description:
            'A signed-in session (its cookie), or an API token an administrator made: Authorization: Bearer <token>. Tokens read only.',
        },
        resource: [
          {
            type: 'RiskAssessment',
            interaction: readAndSearch,
            searchParam: [
              {
                name: 'subject',
                type: 'reference',
                documentation: 'The Patient assessed: Patient/{id}. Newest first, paged by _count.',
              },
            ],
          },
          {
            type: 'Observation',
            interaction: [{ code: 'read' }],
            documentation:
              "The measurements a RiskAssessment's basis names: {assessment id}.age, .height, .weight or .bmi.",
          },
          {
            type: 'Condition',
            interaction: [{ code: 'read' }],
            documentation:
              'A condition diagnosed at an assessment, which its RiskAssessment names: {assessment id}.{condition}.',
          },
          {
            type: 'Patient',
            interaction: readAndSearch,
            searchParam: [
              {
                name: 'identifier',
                type: 'token',
                documentation:
                  'SYSTEM|VALUE or VALUE: the patient number (compared without case) under the patient number system.',
              },
            ],
          },
        ],
      },
    ],
  };
}
