import type { z } from 'zod';
import type { Gender } from '../../engine/index.ts';
import type { AuditAction } from '../../shared/api/audit.ts';
import {
  birthDateProblem,
  patientNumberTakenMessage,
  stalePatientMessage,
  type newPatientBodySchema,
  type Patient,
  type PatientAssessmentList,
  type patientBodySchema,
  type PatientList,
  type patientListQuerySchema,
} from '../../shared/api/patients.ts';
import { can } from '../auth/policy.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/repositories/executor.ts';
import {
  patientRecordsRepository,
  searchWords,
  type PatientRecordCursor,
  type PatientRecordRow,
} from '../db/repositories/patient-records.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { presentPatient, presentTimelineEntry } from '../presenters/patient.ts';
import { localDate } from '../time.ts';
import type { Requester } from '../auth/requester.ts';
import type { Scope } from '../auth/scope.ts';
import { recordAudit } from './audit.ts';
import { unitForNewRecord } from './record-units.ts';

type PatientBody = z.output<typeof patientBodySchema>;
type NewPatientBody = z.output<typeof newPatientBodySchema>;
type ListQuery = z.output<typeof patientListQuerySchema>;

function notFound(): AppError {
  return new AppError(404, 'not_found', 'Patient not found');
}

function numberTaken(existingId: string, field = 'number'): AppError {
  return new AppError(409, 'conflict', patientNumberTakenMessage, field, { existingId });
}

function isUniqueViolation(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /UNIQUE constraint failed|duplicate key value/i.test(message);
}

/** Today's date on the clinic's calendar. */
function clinicToday(context: AppContext): string {
  return localDate(context.now(), context.config.timeZone);
}

function checkBirthDate(
  context: AppContext,
  birthDate: string | null | undefined,
  field = 'birthDate',
): void {
  if (birthDate === null || birthDate === undefined) return;
  const problem = birthDateProblem(birthDate, clinicToday(context));
  if (problem !== undefined) {
    throw new AppError(400, 'validation_failed', `${field}: ${problem}`, field);
  }
}

/** Refuses a number another live record of the unit has (without regard to case). */
/** A new patient record's row, version 1, registered at the unit. */
export function newPatientRecordRow(
  patient: {
    number: string;
    name?: string | null | undefined;
    birthDate?: string | null | undefined;
    gender?: Gender | null | undefined;
  },
  made: { unitId: string; createdBy: string | null; at: Date },
): PatientRecordRow {
  return {
    id: timeOrderedId(made.at.getTime()),
    number: patient.number,
    number_key: patient.number.toLowerCase(),
    name: patient.name ?? null,
    birth_date: patient.birthDate ?? null,
    gender: patient.gender ?? null,
    version: 1,
    created_at: made.at.toISOString(),
    updated_at: made.at.toISOString(),
    created_by: made.createdBy,
    deleted_at: null,
    deleted_by: null,
    org_unit_id: made.unitId,
  };
}

export async function assertNumberFree(
  db: Executor,
  unitId: string,
  number: string,
  options: { ownId?: string; field?: string } = {},
): Promise<void> {
  const existing = await patientRecordsRepository.findLiveByNumberInUnit(db, unitId, number);
  if (existing !== undefined && existing.id !== options.ownId) {
    throw numberTaken(existing.id, options.field);
  }
}

/**
 * Creates a patient record inside the caller's transaction (a patient's own create, or the
 * assessment that first names them) and audits it there. `field` is where the body holds the
 * patient (`newPatient` in an assessment), for the field an error names.
 */
export async function insertPatientRecord(
  context: AppContext,
  trx: Executor,
  requester: Requester,
  body: NewPatientBody & {
    gender?: 'Male' | 'Female' | null | undefined;
    orgUnitId?: string | undefined;
  },
  field?: string,
): Promise<PatientRecordRow> {
  const at = (name: string) => (field === undefined ? name : `${field}.${name}`);
  checkBirthDate(context, body.birthDate, at('birthDate'));
  const unitId = await unitForNewRecord(trx, requester.scope, {
    chosenUnitId: body.orgUnitId,
    userId: requester.user.id,
  });
  await assertNumberFree(trx, unitId, body.number, { field: at('number') });
  const now = context.now();
  const row = newPatientRecordRow(
    { number: body.number, name: body.name, birthDate: body.birthDate, gender: body.gender },
    { unitId, createdBy: requester.user.id, at: now },
  );
  await patientRecordsRepository.insert(trx, row);
  await recordAudit(trx, {
    at: now,
    actor: requester.user,
    action: 'patient_create',
    target: { type: 'patient', id: row.id },
    address: requester.address,
  });
  return row;
}

/** A unique-index refusal that raced past the check above answers like the check. */
async function withNumberConflicts<T>(
  context: AppContext,
  scope: Scope,
  number: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Numbers are unique within a unit, and the record was written in a unit of the scope.
    const [existing] = await patientRecordsRepository.liveByNumberWithin(
      context.database.db,
      scope,
      number,
      1,
    );
    if (existing !== undefined) throw numberTaken(existing.id);
    throw error;
  }
}

async function present(context: AppContext, scope: Scope, row: PatientRecordRow): Promise<Patient> {
  return presentPatient(
    row,
    await patientRecordsRepository.lastHeight(context.database.db, scope, row.id),
    clinicToday(context),
  );
}

async function findVisible(
  context: AppContext,
  requester: Requester,
  id: string,
): Promise<PatientRecordRow> {
  const row = await patientRecordsRepository.find(context.database.db, requester.scope, id);
  if (row === undefined) throw notFound();
  if (row.deleted_at !== null && !can(requester.user.role, 'patient.viewDeleted')) {
    throw notFound();
  }
  return row;
}

export async function createPatient(
  context: AppContext,
  requester: Requester,
  body: PatientBody,
): Promise<Patient> {
  const row = await withNumberConflicts(context, requester.scope, body.number, () =>
    context.database.transaction((trx) => insertPatientRecord(context, trx, requester, body)),
  );
  return present(context, requester.scope, row);
}

/** Reads a patient record for the patient page; the opening is audited. */
export async function getPatient(
  context: AppContext,
  requester: Requester,
  id: string,
): Promise<Patient> {
  const row = await findVisible(context, requester, id);
  await recordAudit(context.database.db, {
    at: context.now(),
    actor: requester.user,
    action: 'patient_view',
    target: { type: 'patient', id },
    address: requester.address,
  });
  return present(context, requester.scope, row);
}

function encodeCursor(cursor: PatientRecordCursor): string {
  return Buffer.from(JSON.stringify([cursor.numberKey, cursor.id])).toString('base64url');
}

function decodeCursor(text: string): PatientRecordCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      value.every((part) => typeof part === 'string' && !part.includes('\u0000'))
    ) {
      return { numberKey: value[0] as string, id: value[1] as string };
    }
  } catch {
    // Not JSON: refused below like any other malformed cursor.
  }
  throw new AppError(400, 'validation_failed', 'cursor: Invalid cursor', 'cursor');
}

/** Searches live patient records by number or name; audited without the search text. */
export async function listPatients(
  context: AppContext,
  requester: Requester,
  query: ListQuery,
): Promise<PatientList> {
  const db = context.database.db;
  const words = await patientRecordsRepository.rarestFirst(db, searchWords(query.q ?? ''));
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const { rows, total } = await patientRecordsRepository.search(
    db,
    requester.scope,
    words,
    query.limit + 1,
    after,
  );
  await recordAudit(db, {
    at: context.now(),
    actor: requester.user,
    action: 'patient_search',
    address: requester.address,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const today = clinicToday(context);
  const heights = await patientRecordsRepository.lastHeights(
    db,
    requester.scope,
    page.map((row) => row.id),
  );
  return {
    items: page.map((row) => presentPatient(row, heights.get(row.id) ?? null, today)),
    total,
    nextCursor:
      rows.length > query.limit && last !== undefined
        ? encodeCursor({ numberKey: last.number_key, id: last.id })
        : null,
  };
}

type PatientChanges = Parameters<typeof patientRecordsRepository.updateAtVersion>[3];

/**
 * One audited change of a patient record in one transaction, at the version the user saw when
 * given (the check and the write are one statement): `decide` checks the row and says what to
 * change.
 */
async function changePatient(
  context: AppContext,
  requester: Requester,
  id: string,
  action: AuditAction,
  expectedVersion: number | undefined,
  decide: (trx: Executor, row: PatientRecordRow, at: string) => Promise<PatientChanges>,
  /** What the audit row says of the change (unit ids, never patient data). */
  detail?: (row: PatientRecordRow) => string,
): Promise<PatientRecordRow> {
  const now = context.now();
  await context.database.transaction(async (trx) => {
    const row = await patientRecordsRepository.find(trx, requester.scope, id);
    if (row === undefined) throw notFound();
    const changes = await decide(trx, row, now.toISOString());
    if (expectedVersion !== undefined && row.version !== expectedVersion) {
      throw new AppError(412, 'stale_version', stalePatientMessage);
    }
    const updated = await patientRecordsRepository.updateAtVersion(
      trx,
      id,
      expectedVersion ?? row.version,
      changes,
    );
    if (!updated) throw new AppError(412, 'stale_version', stalePatientMessage);
    if (changes.deleted_at !== undefined) {
      await patientRecordsRepository.setWordsLive(
        trx,
        id,
        changes.deleted_at === null ? row.number_key : null,
      );
    }
    if (changes.number !== undefined || changes.name !== undefined) {
      await patientRecordsRepository.replaceWords(
        trx,
        id,
        changes.number ?? row.number,
        changes.name === undefined ? row.name : changes.name,
      );
    }
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action,
      target: { type: 'patient', id },
      address: requester.address,
      ...(detail === undefined ? {} : { detail: detail(row) }),
    });
  });
  const row = await patientRecordsRepository.find(context.database.db, requester.scope, id);
  if (row === undefined) throw notFound();
  return row;
}

/** Replaces a patient's details; a field left out keeps its value. */
export async function updatePatient(
  context: AppContext,
  requester: Requester,
  id: string,
  expectedVersion: number,
  body: PatientBody,
): Promise<Patient> {
  checkBirthDate(context, body.birthDate);
  const row = await withNumberConflicts(context, requester.scope, body.number, () =>
    changePatient(
      context,
      requester,
      id,
      'patient_update',
      expectedVersion,
      async (trx, current, at) => {
        if (current.deleted_at !== null) throw notFound();
        await assertNumberFree(trx, current.org_unit_id, body.number, { ownId: id });
        return {
          number: body.number,
          number_key: body.number.toLowerCase(),
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(body.birthDate === undefined ? {} : { birth_date: body.birthDate }),
          ...(body.gender === undefined ? {} : { gender: body.gender }),
          updated_at: at,
        };
      },
    ),
  );
  return present(context, requester.scope, row);
}

/** Soft-deletes a patient record (admins); its assessments stay as they are. */
export async function deletePatient(
  context: AppContext,
  requester: Requester,
  id: string,
  expectedVersion: number | undefined,
): Promise<void> {
  await changePatient(
    context,
    requester,
    id,
    'patient_delete',
    expectedVersion,
    async (_trx, row, at) => {
      if (row.deleted_at !== null) throw notFound();
      return { deleted_at: at, deleted_by: requester.user.id, updated_at: at };
    },
  );
}

/**
 * A change that may bring the record's number beside another live record's (a restore, a
 * transfer): the number is read first, so that a unique-index refusal that raced past the check
 * answers 409 naming the record that holds it.
 */
async function changeKeepingNumberUnique(
  ...[context, requester, id, ...change]: Parameters<typeof changePatient>
): Promise<PatientRecordRow> {
  const found = await patientRecordsRepository.find(context.database.db, requester.scope, id);
  if (found === undefined) throw notFound();
  return withNumberConflicts(context, requester.scope, found.number, () =>
    changePatient(context, requester, id, ...change),
  );
}

export async function restorePatient(
  context: AppContext,
  requester: Requester,
  id: string,
): Promise<Patient> {
  const row = await changeKeepingNumberUnique(
    context,
    requester,
    id,
    'patient_restore',
    undefined,
    async (trx, current, at) => {
      if (current.deleted_at === null) {
        throw new AppError(409, 'conflict', 'This patient is not deleted.');
      }
      await assertNumberFree(trx, current.org_unit_id, current.number, { ownId: id });
      return { deleted_at: null, deleted_by: null, updated_at: at };
    },
  );
  return present(context, requester.scope, row);
}

/**
 * Registers a live patient record at another unit within the caller's scope (which holds the
 * record's unit too, or the record would be unknown to them). The number must be free there.
 * Audited with both units; the assessments stay at the units where they were done.
 */
export async function transferPatient(
  context: AppContext,
  requester: Requester,
  id: string,
  expectedVersion: number,
  orgUnitId: string,
): Promise<Patient> {
  const row = await changeKeepingNumberUnique(
    context,
    requester,
    id,
    'patient_transfer',
    expectedVersion,
    async (trx, current, at) => {
      if (current.deleted_at !== null) throw notFound();
      const target = await unitForNewRecord(trx, requester.scope, { chosenUnitId: orgUnitId });
      if (target === current.org_unit_id) {
        throw new AppError(
          409,
          'conflict',
          'orgUnitId: The patient is registered at this unit already.',
          'orgUnitId',
        );
      }
      await assertNumberFree(trx, target, current.number, { ownId: id });
      return { org_unit_id: target, updated_at: at };
    },
    (current) => `from ${current.org_unit_id} to ${orgUnitId}`,
  );
  return present(context, requester.scope, row);
}

/** A patient's live assessments, newest first. */
export async function patientAssessments(
  context: AppContext,
  requester: Requester,
  id: string,
): Promise<PatientAssessmentList> {
  await findVisible(context, requester, id);
  const rows = await patientRecordsRepository.timeline(context.database.db, requester.scope, id);
  return { items: rows.map(presentTimelineEntry) };
}
