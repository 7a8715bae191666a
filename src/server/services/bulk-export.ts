import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Bundle, OperationOutcome } from '@medplum/fhirtypes';
import { CONDITIONS, type Condition } from '../../engine/index.ts';
import { bulkOutputFormats, bulkTexts } from '../../shared/api/fhir-bulk.ts';
import { fhirTexts } from '../../shared/api/fhir.ts';
import { FHIR_SCOPE_TYPES, allows, type SystemScope } from '../auth/fhir-scopes.ts';
import { everythingScope, narrowScope, type Scope } from '../auth/scope.ts';
import type { AppContext } from '../context.ts';
import { databaseFailureOf } from '../db/failures.ts';
import type { Cursor } from '../db/repositories/assessments.ts';
import {
  bulkExportsRepository,
  type BulkExportChunk,
  type BulkExportJobRow,
  type BulkExportSelection,
  type DeletedAssessment,
} from '../db/repositories/bulk-exports.ts';
import { orgUnitsRepository, type OrgUnitRow } from '../db/repositories/org-units.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { recordAudit, type AuditEntry } from './audit.ts';
import { presentRecord } from './exports.ts';
import {
  assessmentPartId,
  assessmentResources,
  failedAssessmentOutcome,
  organizationResource,
  patientRecordResource,
} from './fhir.ts';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/**
 * FHIR Bulk Data export (issue 38): a kick-off records a job; a runner in the background of
 * every server instance takes jobs up and writes their NDJSON into the database a page at a
 * time, so that any instance answers a job's status and serves its files, and a job whose
 * instance stopped is taken up again where its last page left it.
 */

/** The resource types an export can hold, in the order of the manifest's files. */
export const bulkExportTypes = FHIR_SCOPE_TYPES;
type BulkType = (typeof bulkExportTypes)[number];

/** Who asks: the owner key that alone reads the job, and what the audit trail names. */
export interface BulkCaller {
  /** `user:{id}`, `api-token:{id}` or `fhir-client:{client id}`. */
  owner: string;
  actor: AuditEntry['actor'];
  address: string;
  scope: Scope;
  /** A FHIR client's scopes; undefined for a session or an API token, which read every type. */
  clientScopes: readonly SystemScope[] | undefined;
}

export interface KickOff {
  kind: 'system' | 'patient' | 'group';
  /** The Group's id (an organisation unit's) for a group export. */
  groupId?: string;
  /** The kick-off's URL, as the manifest's `request` repeats it. */
  requestUrl: string;
  parameters: URLSearchParams;
  strict: boolean;
  respondAsync: boolean;
}

/** Parameters the kick-off reads, and `_format`, which the FHIR API reads for every request. */
const kickOffParameters: ReadonlySet<string> = new Set([
  '_type',
  '_since',
  '_outputFormat',
  '_format',
]);

const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

function invalid(message: string, field: string): AppError {
  return new AppError(400, 'validation_failed', message, field);
}

/** Whether a FHIR client's scopes let it export a type: it hands out every resource, so read and search. */
function mayExport(caller: BulkCaller, type: string): boolean {
  return (
    caller.clientScopes === undefined ||
    (allows(caller.clientScopes, type, 'r') && allows(caller.clientScopes, type, 's'))
  );
}

/** The types asked for by `_type` (all that the caller may export without it), refused when unknown or not allowed. */
function requestedTypes(caller: BulkCaller, parameters: URLSearchParams): BulkType[] {
  const named = parameters
    .getAll('_type')
    .flatMap((value) => value.split(','))
    .map((type) => type.trim());
  if (named.length === 0) {
    const allowed = bulkExportTypes.filter((type) => mayExport(caller, type));
    if (allowed.length === 0) throw new AppError(403, 'forbidden', bulkTexts.noTypeAllowed);
    return allowed;
  }
  const known = new Set<string>(bulkExportTypes);
  if (named.some((type) => !known.has(type))) throw invalid(bulkTexts.badType, '_type');
  const refused = [...new Set(named)].filter((type) => !mayExport(caller, type));
  if (refused.length > 0) {
    throw new AppError(403, 'forbidden', `${bulkTexts.typeNotAllowed} ${refused.join(', ')}.`);
  }
  return bulkExportTypes.filter((type) => named.includes(type));
}

function sinceOf(parameters: URLSearchParams): string | undefined {
  const values = parameters.getAll('_since');
  if (values.length === 0) return undefined;
  const [value] = values;
  const instant = value === undefined ? Number.NaN : Date.parse(value);
  if (
    values.length > 1 ||
    value === undefined ||
    !instantPattern.test(value) ||
    Number.isNaN(instant)
  ) {
    throw invalid(bulkTexts.badSince, '_since');
  }
  return new Date(instant).toISOString();
}

function checkOutputFormat(parameters: URLSearchParams): void {
  const formats = parameters.getAll('_outputFormat');
  if (formats.length > 1 || formats.some((format) => !bulkOutputFormats.has(format.trim()))) {
    throw invalid(bulkTexts.badOutputFormat, '_outputFormat');
  }
}

/** The kick-off's types, `_since` and scope, checked as the IG says; an AppError when refused. */
async function checkedKickOff(
  context: AppContext,
  caller: BulkCaller,
  kickOff: KickOff,
): Promise<{ types: string[]; since: string | undefined; scope: Scope }> {
  const { parameters } = kickOff;
  if (!kickOff.respondAsync) throw invalid(bulkTexts.respondAsync, 'Prefer');
  if (kickOff.strict) {
    const unknown = [...new Set(parameters.keys())].filter((name) => !kickOffParameters.has(name));
    if (unknown.length > 0) {
      throw invalid(
        `${bulkTexts.unknownParameters} ${unknown.sort().join(', ')}.`,
        unknown[0] ?? '',
      );
    }
  }
  const types = requestedTypes(caller, parameters);
  const since = sinceOf(parameters);
  checkOutputFormat(parameters);
  let scope = caller.scope;
  if (kickOff.kind === 'group') {
    const unit =
      kickOff.groupId === undefined
        ? undefined
        : await orgUnitsRepository.findById(context.database.db, kickOff.groupId);
    if (unit === undefined) throw new AppError(404, 'not_found', fhirTexts.notFound);
    scope = await narrowScope(context.database.db, scope, unit.id);
  }
  return { types, since, scope };
}

/**
 * Starts an export: checks the request as the IG says (Prefer: respond-async, the parameters),
 * records the job with the caller's units (a group export's: the unit's, within the caller's)
 * and audits it. Returns the job's id; the runner is woken by the caller.
 */
export async function startBulkExport(
  context: AppContext,
  caller: BulkCaller,
  kickOff: KickOff,
): Promise<string> {
  let checked: { types: string[]; since: string | undefined; scope: Scope };
  try {
    checked = await checkedKickOff(context, caller, kickOff);
  } catch (error) {
    // A refused kick-off is audited too: who asked, and why it was refused (never the data).
    if (error instanceof AppError) {
      await recordAudit(context.database.db, {
        at: context.now(),
        actor: caller.actor,
        action: 'export',
        outcome: 'failure',
        address: caller.address,
        detail: `bulk ${kickOff.kind} kick-off refused: ${error.status} ${error.code}${error.field === undefined ? '' : ` ${error.field}`}`,
      });
    }
    throw error;
  }
  const { types, since, scope } = checked;
  const now = context.now();
  const id = timeOrderedId(now.getTime());
  await context.database.transaction(async (trx) => {
    await bulkExportsRepository.insertJob(trx, {
      id,
      owner: caller.owner,
      request: kickOff.requestUrl,
      types: types.join(','),
      since: since ?? null,
      scope_unit_ids: scope.kind === 'everything' ? null : JSON.stringify(scope.unitIds),
      status: 'queued',
      transaction_time: now.toISOString(),
      phase: 0,
      cursor: null,
      resources_done: 0,
      attempts: 0,
      runner_id: null,
      heartbeat_at: null,
      error: null,
      completed_at: null,
      expires_at: null,
    });
    await recordAudit(trx, {
      at: now,
      actor: caller.actor,
      action: 'export',
      target: { type: 'bulk_export', id },
      address: caller.address,
      detail: types.join(','),
    });
  });
  return id;
}

/** The job, when it is the caller's and its files have not expired; else 404 as if it never was. */
async function callersJob(
  context: AppContext,
  caller: BulkCaller,
  jobId: string,
): Promise<BulkExportJobRow> {
  const job = await bulkExportsRepository.findJob(context.database.db, jobId);
  const expired = job?.expires_at != null && job.expires_at <= context.now().toISOString();
  if (job === undefined || job.owner !== caller.owner || expired) {
    throw new AppError(404, 'not_found', fhirTexts.notFound);
  }
  return job;
}

export interface BulkManifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: true;
  output: Array<{ type: string; url: string; count: number }>;
  error: Array<{ type: string; url: string; count: number }>;
  /** With `_since`: transaction Bundles naming what was deleted after it. */
  deleted?: Array<{ type: string; url: string; count: number }>;
}

export type BulkStatus =
  | { state: 'in-progress'; progress: string }
  | { state: 'failed'; outcome: OperationOutcome }
  | { state: 'completed'; manifest: BulkManifest; expiresAt: string };

const phaseNames = [
  'organizations',
  'patient records',
  'assessments',
  'deleted patient records',
  'deleted assessments',
] as const;

function fileName(type: string, fileIndex: number): string {
  return `${type}-${fileIndex}.ndjson`;
}

/** Where the job stands: in progress, failed (an OperationOutcome) or complete (the manifest). */
export async function bulkExportStatus(
  context: AppContext,
  caller: BulkCaller,
  jobId: string,
  base: string,
): Promise<BulkStatus> {
  const job = await callersJob(context, caller, jobId);
  if (job.status === 'queued' || job.status === 'running') {
    const phase = Math.min(job.phase, phaseNames.length - 1);
    return {
      state: 'in-progress',
      progress: `${job.status === 'queued' ? 'waiting' : `reading ${phaseNames[phase]}`}: ${job.resources_done} resources written`,
    };
  }
  if (job.status === 'failed') {
    return {
      state: 'failed',
      outcome: {
        resourceType: 'OperationOutcome',
        issue: [
          { severity: 'error', code: 'exception', diagnostics: job.error ?? bulkTexts.failed },
        ],
      },
    };
  }
  const files = await bulkExportsRepository.files(context.database.db, jobId);
  const order = job.types.split(',');
  const entry = (file: (typeof files)[number]) => ({
    type: file.resourceType,
    url: `${base}/bulk-files/${jobId}/${fileName(file.resourceType, file.fileIndex)}`,
    count: file.lineCount,
  });
  return {
    state: 'completed',
    expiresAt: job.expires_at ?? '',
    manifest: {
      transactionTime: job.transaction_time,
      request: job.request,
      requiresAccessToken: true,
      output: files
        .filter(
          (file) => file.resourceType !== 'OperationOutcome' && file.resourceType !== 'Bundle',
        )
        .sort(
          (a, b) =>
            order.indexOf(a.resourceType) - order.indexOf(b.resourceType) ||
            a.fileIndex - b.fileIndex,
        )
        .map(entry),
      error: files.filter((file) => file.resourceType === 'OperationOutcome').map(entry),
      ...(job.since === null
        ? {}
        : { deleted: files.filter((file) => file.resourceType === 'Bundle').map(entry) }),
    },
  };
}

/**
 * One file of a complete job, streamed a chunk at a time from the database; audited as an
 * export naming the file. A FHIR client whose token no longer allows the type is refused.
 */
export async function bulkExportFile(
  context: AppContext,
  caller: BulkCaller,
  jobId: string,
  file: string,
): Promise<Readable> {
  const job = await callersJob(context, caller, jobId);
  const match = /^([A-Za-z]+)-(\d+)\.ndjson$/.exec(file);
  const type = match?.[1] ?? '';
  const fileIndex = Number(match?.[2]);
  const db = context.database.db;
  const summary =
    job.status === 'completed'
      ? (await bulkExportsRepository.files(db, jobId)).find(
          (entry) => entry.resourceType === type && entry.fileIndex === fileIndex,
        )
      : undefined;
  if (summary === undefined) throw new AppError(404, 'not_found', fhirTexts.notFound);
  if (type !== 'OperationOutcome' && type !== 'Bundle' && !mayExport(caller, type)) {
    throw new AppError(403, 'forbidden', `${bulkTexts.typeNotAllowed} ${type}.`);
  }
  await recordAudit(db, {
    at: context.now(),
    actor: caller.actor,
    action: 'export',
    target: { type: 'bulk_export', id: `${jobId}/${file}` },
    address: caller.address,
  });
  async function* chunks() {
    for (let index = 0; index < (summary?.chunkCount ?? 0); index++) {
      const packed = await bulkExportsRepository.chunk(db, jobId, type, fileIndex, index);
      if (packed !== undefined) yield await gunzip(packed);
    }
  }
  return Readable.from(chunks());
}

/** Cancels the caller's job: the job and its files are deleted, and a running page stops. */
export async function cancelBulkExport(
  context: AppContext,
  caller: BulkCaller,
  jobId: string,
): Promise<void> {
  await callersJob(context, caller, jobId);
  await context.database.transaction((trx) => bulkExportsRepository.deleteJob(trx, jobId));
}

/** Patient records a page reads (assessments: the exports' page of 250). */
const patientRecordPage = 1_000;
/** Lines a file holds at most; a type with more is split over several files. */
export const linesPerFile = 50_000;
/** A runner that has written nothing for this long has stopped; another takes its job up. */
export const leaseMillis = 60_000;
/** Takes up after which a job is failed rather than run again (each was cut short). */
const maxAttempts = 3;
/** How often a runner looks for jobs other instances recorded, or stopped running. */
const pollMillis = 1_000;
/** How often expired files are deleted. */
const sweepMillis = 60_000;

/** A file being written: its number and lines so far. */
interface OpenFile {
  fileIndex: number;
  lines: number;
  chunks: number;
}

/** The lines of one page, by type, and what they add to the job's files. */
export class PageLines {
  private readonly lines = new Map<string, string[]>();
  count = 0;

  add(type: string, resource: object): void {
    let list = this.lines.get(type);
    if (list === undefined) {
      list = [];
      this.lines.set(type, list);
    }
    list.push(`${JSON.stringify(resource)}\n`);
    this.count++;
  }

  /**
   * The chunks to write, gzipped (in the thread pool, off the event loop), moving each type's
   * open file on (a new file once one is full).
   */
  async chunks(files: Map<string, OpenFile>): Promise<BulkExportChunk[]> {
    const chunks: BulkExportChunk[] = [];
    for (const [type, lines] of this.lines) {
      let file = files.get(type) ?? { fileIndex: 1, lines: 0, chunks: 0 };
      for (let start = 0; start < lines.length;) {
        if (file.lines >= linesPerFile)
          file = { fileIndex: file.fileIndex + 1, lines: 0, chunks: 0 };
        const take = lines.slice(start, start + (linesPerFile - file.lines));
        chunks.push({
          resource_type: type,
          file_index: file.fileIndex,
          chunk_index: file.chunks,
          line_count: take.length,
          ndjson_gzip: await gzip(take.join(''), { level: 1 }),
        });
        file = { ...file, lines: file.lines + take.length, chunks: file.chunks + 1 };
        start += take.length;
      }
      files.set(type, file);
    }
    return chunks;
  }
}

/** The units whose Organizations an export carries: those of its scope and the units above them. */
function exportedUnits(units: readonly OrgUnitRow[], scope: Scope): OrgUnitRow[] {
  if (scope.kind === 'everything') return [...units];
  const byId = new Map(units.map((unit) => [unit.id, unit]));
  const wanted = new Set<string>();
  for (const id of scope.unitIds) {
    for (let unit = byId.get(id); unit !== undefined && !wanted.has(unit.id);) {
      wanted.add(unit.id);
      unit = unit.parent_id === null ? undefined : byId.get(unit.parent_id);
    }
  }
  return units.filter((unit) => wanted.has(unit.id));
}

type PageOutcome = { lines: PageLines; cursor: string | null; phaseDone: boolean };

/** One page of a job's current phase: its resources as lines, and where the next page starts. */
async function readPage(
  context: AppContext,
  job: BulkExportJobRow,
  phase: number,
  cursor: string | null,
): Promise<PageOutcome> {
  const db = context.database.db;
  const types = new Set(job.types.split(','));
  const selection: BulkExportSelection = {
    scope:
      job.scope_unit_ids === null
        ? everythingScope
        : { kind: 'units', unitIds: JSON.parse(job.scope_unit_ids) as string[] },
    until: job.transaction_time,
    since: job.since ?? undefined,
  };
  const lines = new PageLines();
  const pageSize = context.bulkExportPageSize;
  if (phase === 0) {
    if (types.has('Organization')) {
      for (const unit of exportedUnits(await orgUnitsRepository.list(db), selection.scope)) {
        if (selection.since !== undefined && unit.updated_at <= selection.since) continue;
        lines.add('Organization', organizationResource(unit, context.config.orgUnitIdSystem));
      }
    }
    return { lines, cursor: null, phaseDone: true };
  }
  if (phase === 1) {
    if (!types.has('Patient')) return { lines, cursor: null, phaseDone: true };
    const limit = pageSize ?? patientRecordPage;
    const records = await bulkExportsRepository.patientRecordsAfter(
      db,
      selection,
      cursor ?? undefined,
      limit,
    );
    for (const record of records) {
      lines.add(
        'Patient',
        patientRecordResource(
          {
            id: record.id,
            number: record.number,
            name: record.name,
            birthDate: record.birth_date,
            gender: record.gender,
            orgUnitId: record.org_unit_id,
            version: record.version,
            updatedAt: record.updated_at,
          },
          context.config.patientIdSystem,
        ),
      );
    }
    const last = records.at(-1);
    return { lines, cursor: last?.id ?? null, phaseDone: records.length < limit };
  }
  if (phase >= 3) return readDeletions(context, selection, types, phase, cursor);
  if (!['Patient', 'Observation', 'Condition', 'RiskAssessment'].some((type) => types.has(type))) {
    return { lines, cursor: null, phaseDone: true };
  }
  const after = cursor === null ? undefined : (JSON.parse(cursor) as Cursor);
  const records = await bulkExportsRepository.assessmentsAfter(
    db,
    context.database.engine,
    selection,
    after,
    pageSize,
  );
  for (const record of records) {
    try {
      const linked =
        record.linkedPatient === undefined
          ? undefined
          : {
              record: {
                id: record.linkedPatient.id,
                number: record.linkedPatient.number,
                name: record.linkedPatient.name,
                birthDate: record.linkedPatient.birth_date,
                gender: record.linkedPatient.gender,
                orgUnitId: record.linkedPatient.org_unit_id,
                version: record.linkedPatient.version,
                updatedAt: record.linkedPatient.updated_at,
              },
              identifierSystem: context.config.patientIdSystem,
              // The record's Patient is written from the patient records (phase 1).
              included: false,
            };
      const resources = assessmentResources(
        presentRecord(record),
        record.reviews,
        { version: record.assessment.review_version, at: record.assessment.reviewed_at },
        linked,
      );
      for (const resource of resources) {
        if (types.has(resource.resourceType)) lines.add(resource.resourceType, resource);
      }
    } catch {
      lines.add(
        'OperationOutcome',
        failedAssessmentOutcome(record.assessment.id, 'Its resources could not be made.'),
      );
    }
  }
  const last = records.at(-1);
  return {
    lines,
    cursor:
      last === undefined
        ? null
        : JSON.stringify({ createdAt: last.assessment.created_at, id: last.assessment.id }),
    phaseDone: records.length < (pageSize ?? 250),
  };
}

/** A line of the manifest's `deleted` files: a transaction Bundle deleting the resources named. */
function deletionBundle(references: readonly string[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: references.map((url) => ({ request: { method: 'DELETE', url } })),
  };
}

const measurementColumns = ['age', 'height', 'weight', 'bmi'] as const;

/** The resources of the job's types that a deleted assessment had, as `Type/id`. */
function deletedAssessmentReferences(
  assessment: DeletedAssessment,
  types: ReadonlySet<string>,
): string[] {
  const part = (type: string, name: string) =>
    types.has(type) ? [`${type}/${assessmentPartId(assessment.id, name)}`] : [];
  // In the conditions' order, as the assessment's resources are made.
  const results = [...assessment.results].sort(
    (a, b) =>
      CONDITIONS.indexOf(a.condition as Condition) - CONDITIONS.indexOf(b.condition as Condition),
  );
  return [
    ...(assessment.patient_record_id === null ? part('Patient', 'patient') : []),
    // BMI is written only when it could be computed (services/fhir.ts).
    ...measurementColumns.flatMap((column) => {
      const value = assessment[column];
      return value === null || (column === 'bmi' && value <= 0) ? [] : part('Observation', column);
    }),
    ...results.flatMap((result) =>
      result.risk_status === 'DIAGNOSED' ? part('Condition', result.condition) : [],
    ),
    ...results.flatMap((result) => part('RiskAssessment', result.condition)),
  ];
}

/**
 * With `_since`, what the API stopped serving after it (the manifest's `deleted`): a Bundle per
 * patient record deleted (phase 3), and per assessment deleted or of a deleted record (phase 4).
 */
async function readDeletions(
  context: AppContext,
  selection: BulkExportSelection,
  types: ReadonlySet<string>,
  phase: number,
  cursor: string | null,
): Promise<PageOutcome> {
  const lines = new PageLines();
  const { since } = selection;
  if (since === undefined) return { lines, cursor: null, phaseDone: true };
  const db = context.database.db;
  const limit = context.bulkExportPageSize ?? patientRecordPage;
  if (phase === 3) {
    if (!types.has('Patient')) return { lines, cursor: null, phaseDone: true };
    const ids = await bulkExportsRepository.recordsDeletedAfter(
      db,
      { ...selection, since },
      cursor ?? undefined,
      limit,
    );
    for (const id of ids) lines.add('Bundle', deletionBundle([`Patient/${id}`]));
    return { lines, cursor: ids.at(-1) ?? null, phaseDone: ids.length < limit };
  }
  const after = cursor === null ? undefined : (JSON.parse(cursor) as Cursor);
  const assessments = await bulkExportsRepository.assessmentsDeletedAfter(
    db,
    { ...selection, since },
    after,
    limit,
  );
  for (const assessment of assessments) {
    const references = deletedAssessmentReferences(assessment, types);
    if (references.length > 0) lines.add('Bundle', deletionBundle(references));
  }
  const last = assessments.at(-1);
  return {
    lines,
    cursor: last === undefined ? null : JSON.stringify({ createdAt: last.created_at, id: last.id }),
    phaseDone: assessments.length < limit,
  };
}

function expiry(context: AppContext, from: Date): string {
  return new Date(from.getTime() + context.config.bulkExportHours * 3_600_000).toISOString();
}

/** Why a run ended early: the job is no longer this runner's, or the runner is stopping. */
type RunEnd = 'done' | 'lost' | 'stopping';

/** Runs a job taken up by the runner from where it stands to its end, a page per transaction. */
async function runJob(
  context: AppContext,
  runnerId: string,
  job: BulkExportJobRow,
  stopping: () => boolean,
): Promise<RunEnd> {
  const db = context.database.db;
  if (job.attempts > maxAttempts) {
    const now = context.now();
    await bulkExportsRepository.finishJob(db, job.id, runnerId, {
      status: 'failed',
      error: bulkTexts.interrupted,
      at: now.toISOString(),
      expiresAt: expiry(context, now),
    });
    return 'done';
  }
  const files = new Map<string, OpenFile>();
  for (const file of await bulkExportsRepository.files(db, job.id)) {
    const open = files.get(file.resourceType);
    if (open === undefined || open.fileIndex < file.fileIndex) {
      files.set(file.resourceType, {
        fileIndex: file.fileIndex,
        lines: file.lineCount,
        chunks: file.chunkCount,
      });
    }
  }
  let { phase, cursor, resources_done: done } = job;
  // A page is gzipped and written while the next one is read and made: the gzip runs in the
  // thread pool, and the runner would otherwise wait for it idle. Pages are kept in order (each
  // page's chunks continue the files the one before left), and each page's cursor is committed
  // with its chunks, so a restart resumes after the last page written.
  let writing: Promise<boolean> = Promise.resolve(true);
  while (phase < phaseNames.length) {
    if (stopping()) {
      if (!(await writing)) return 'lost';
      await bulkExportsRepository.releaseJob(db, job.id, runnerId);
      return 'stopping';
    }
    const page = await readPage(context, job, phase, cursor);
    done += page.lines.count;
    if (page.phaseDone) {
      phase += 1;
      cursor = null;
    } else {
      cursor = page.cursor;
    }
    const progress = {
      phase,
      cursor,
      resourcesDone: done,
      heartbeatAt: context.now().toISOString(),
    };
    if (!(await writing)) return 'lost';
    writing = page.lines
      .chunks(files)
      .then((chunks) =>
        context.database.transaction((trx) =>
          bulkExportsRepository.recordPage(trx, job.id, runnerId, progress, chunks),
        ),
      );
    // Other requests run between pages (on SQLite they share the one connection).
    await nextTurn();
  }
  if (!(await writing)) return 'lost';
  const now = context.now();
  await bulkExportsRepository.finishJob(db, job.id, runnerId, {
    status: 'completed',
    error: null,
    at: now.toISOString(),
    expiresAt: expiry(context, now),
  });
  return 'done';
}

/** Deletes the jobs whose files have expired, with their files; how many. */
export async function sweepExpiredBulkExports(context: AppContext): Promise<number> {
  const ids = await bulkExportsRepository.expiredJobIds(
    context.database.db,
    context.now().toISOString(),
  );
  for (const id of ids) {
    await context.database.transaction((trx) => bulkExportsRepository.deleteJob(trx, id));
  }
  return ids.length;
}

export interface BulkExportRunner {
  /** Looks for jobs now (a kick-off on this instance). */
  wake(): void;
  /** Stops after the page in hand, handing a running job back to be taken up again. */
  stop(): Promise<void>;
}

/**
 * The background of a server instance: takes up waiting jobs (and those whose runner stopped
 * writing for `leaseMillis`), one at a time, and deletes expired files every minute. Its timer
 * never keeps the process alive.
 */
export function startBulkExportRunner(
  context: AppContext,
  onError: (error: unknown, message: string) => void,
): BulkExportRunner {
  const runnerId = crypto.randomUUID();
  let stopped = false;
  let draining: Promise<void> | undefined;
  let again = false;
  let lastSweep = 0;

  const runOne = async (): Promise<boolean> => {
    const now = context.now();
    const job = await bulkExportsRepository.claimJob(
      context.database.db,
      runnerId,
      now.toISOString(),
      new Date(now.getTime() - leaseMillis).toISOString(),
    );
    if (job === undefined) return false;
    try {
      await runJob(context, runnerId, job, () => stopped);
    } catch (error) {
      if (databaseFailureOf(error) !== undefined) {
        // The database is away: the job stays as it stands and is taken up again later.
        onError(error, 'a bulk export paused: the database is unavailable');
        return false;
      }
      onError(error, 'a bulk export failed');
      const at = context.now();
      await bulkExportsRepository.finishJob(context.database.db, job.id, runnerId, {
        status: 'failed',
        error: bulkTexts.failed,
        at: at.toISOString(),
        expiresAt: expiry(context, at),
      });
    }
    return true;
  };

  const drain = async () => {
    do {
      again = false;
      while (!stopped && (await runOne()));
      if (!stopped && Date.now() - lastSweep >= sweepMillis) {
        lastSweep = Date.now();
        await sweepExpiredBulkExports(context);
      }
    } while (again && !stopped);
  };

  const wake = () => {
    if (stopped) return;
    if (draining !== undefined) {
      again = true;
      return;
    }
    draining = drain()
      .catch((error: unknown) => onError(error, 'the bulk export runner failed'))
      .finally(() => {
        draining = undefined;
      });
  };

  const timer = setInterval(wake, pollMillis);
  timer.unref();
  wake();
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await draining;
    },
  };
}
