import crypto from 'node:crypto';
import {
  DEFAULT_RULE_SET,
  generateAssessmentCode,
  ruleSetByVersion,
  score,
  type AssessmentResult,
} from '../../engine/index.ts';
import type {
  Assessment,
  AssessmentList,
  assessmentBodySchema,
  assessmentListQuerySchema,
} from '../../shared/api/assessments.ts';
import {
  patientGenderDiffersMessage,
  signedOffUpdateMessage,
  staleVersionMessage,
} from '../../shared/api/assessments.ts';
import type { AuditAction } from '../../shared/api/audit.ts';
import type { z } from 'zod';
import { can } from '../auth/policy.ts';
import type { AppContext } from '../context.ts';
import {
  assessmentsRepository,
  type AssessmentFilter,
  type AssessmentRow,
  type Cursor,
  type StoredAssessment,
} from '../db/repositories/assessments.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { KeptCountChanges, keptCountsRepository } from '../db/repositories/kept-counts.ts';
import {
  patientRecordsRepository,
  type PatientRecordRow,
} from '../db/repositories/patient-records.ts';
import type { Requester } from '../auth/requester.ts';
import type { Scope } from '../auth/scope.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { presentAssessment, presentSummary } from '../presenters/assessment.ts';
import { endOfDayExclusive, localDate, startOfDay } from '../time.ts';
import { recordAudit } from './audit.ts';
import {
  childRows,
  newAssessmentRows,
  patientRow,
  storedNewAssessment,
  storedPatientInput,
  type PatientInput,
} from './assessment-records.ts';
import { parseHistorySearch } from './history-search.ts';
import { activeRuleSet } from './rule-sets.ts';
import { assertNumberFree, insertPatientRecord } from './patients.ts';
import { unitForNewRecord } from './record-units.ts';

type AssessmentBody = z.output<typeof assessmentBodySchema>;
type ListQuery = z.output<typeof assessmentListQuerySchema>;

function notFound(): AppError {
  return new AppError(404, 'not_found', 'Failed to load assessment');
}

function patientInput(body: AssessmentBody): PatientInput {
  return {
    demographics: body.demographics,
    riskFactors: body.riskFactors,
    symptoms: body.symptoms,
    management: body.management,
  };
}

/** The whole assessment as the API shows it; results are recomputed with the stored rule set. */
function present(stored: StoredAssessment): Assessment {
  const input = storedPatientInput(stored);
  const results: AssessmentResult = score(
    input,
    ruleSetByVersion(stored.results[0]?.rule_set_version ?? DEFAULT_RULE_SET.version),
  );
  return presentAssessment(stored, input, results);
}

async function loadOrThrow(db: Executor, scope: Scope, id: string): Promise<StoredAssessment> {
  const stored = await assessmentsRepository.load(db, scope, id);
  if (stored === undefined) throw notFound();
  return stored;
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** Whether a repeated create carries what is already stored (a retried save). */
function sameContent(stored: StoredAssessment, input: PatientInput, notes: string | null): boolean {
  const rows = childRows(stored.assessment.id, input, score(input));
  const asStored = storedPatientInput({
    patient: { ...stored.patient, ...patientRow(input, score(input), stored.patient.updated_at) },
    riskFactors: rows.riskFactors,
    symptoms: rows.symptoms,
    management: rows.management,
  });
  return (
    canonicalJson(asStored) === canonicalJson(storedPatientInput(stored)) &&
    notes === stored.assessment.notes
  );
}

function isUniqueViolation(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /UNIQUE constraint failed|duplicate key value/i.test(message);
}

/**
 * A create that repeats an existing code never makes a second record: with the same content it
 * answers the existing assessment (a retried save), otherwise 409 naming the existing id.
 */
async function existingForCode(
  context: AppContext,
  scope: Scope,
  code: string,
  input: PatientInput,
  notes: string | null,
): Promise<Assessment | undefined> {
  const db = context.database.db;
  const existing = await assessmentsRepository.findIdByCode(db, code);
  if (existing === undefined) return undefined;
  const stored = await assessmentsRepository.load(db, scope, existing.id);
  if (stored === undefined) {
    // The code is taken outside the caller's scope: refused without naming what took it.
    throw new AppError(409, 'conflict', `An assessment with the code ${code} already exists.`);
  }
  if (stored.assessment.deleted_at === null && sameContent(stored, input, notes))
    return present(stored);
  throw new AppError(
    409,
    'conflict',
    `An assessment with the code ${code} already exists.`,
    'code',
    {
      existingId: existing.id,
    },
  );
}

/**
 * The patient record a saved assessment will name: the live record `patientId` names, a record
 * made now from `newPatient`, none (null), or, when the body says nothing of it, undefined (the
 * record stays as it was).
 */
async function patientRecordFor(
  context: AppContext,
  trx: Executor,
  requester: Requester,
  body: AssessmentBody,
): Promise<PatientRecordRow | null | undefined> {
  if (body.patientByNumber !== undefined) {
    if (
      (body.patientId !== undefined && body.patientId !== null) ||
      body.newPatient !== undefined
    ) {
      throw new AppError(
        400,
        'validation_failed',
        'patientByNumber: Name the patient one way only',
        'patientByNumber',
      );
    }
    return patientRecordByNumber(context, trx, requester, body.patientByNumber, body);
  }
  if (body.newPatient !== undefined) {
    if (body.patientId !== undefined && body.patientId !== null) {
      throw new AppError(
        400,
        'validation_failed',
        'newPatient: Name an existing patient or a new one, not both',
        'newPatient',
      );
    }
    return insertPatientRecord(
      context,
      trx,
      requester,
      { ...body.newPatient, gender: body.demographics.gender ?? null, orgUnitId: body.orgUnitId },
      'newPatient',
    );
  }
  if (body.patientId === undefined) return undefined;
  if (body.patientId === null) return null;
  const record = await patientRecordsRepository.find(trx, requester.scope, body.patientId);
  if (record === undefined || record.deleted_at !== null) {
    throw new AppError(400, 'validation_failed', 'patientId: No such patient', 'patientId');
  }
  return record;
}

/**
 * The live record with the number when its gender agrees with the assessment's (either unknown
 * agrees), or whatever its gender when the body says so; else a 409 the browser turns into the
 * choice. A number no live record has makes the record, as `newPatient` would.
 */
async function patientRecordByNumber(
  context: AppContext,
  trx: Executor,
  requester: Requester,
  byNumber: NonNullable<AssessmentBody['patientByNumber']>,
  body: Pick<AssessmentBody, 'demographics' | 'orgUnitId'>,
): Promise<PatientRecordRow> {
  const gender = body.demographics.gender ?? null;
  // Numbers are unique within a unit: the number is looked for where the assessment is done.
  const unitId = await unitForNewRecord(trx, requester.scope, {
    chosenUnitId: body.orgUnitId,
    userId: requester.user.id,
  });
  const record = await patientRecordsRepository.findLiveByNumberInUnit(
    trx,
    unitId,
    byNumber.number,
  );
  if (record === undefined) {
    const { number, name, birthDate } = byNumber;
    return insertPatientRecord(
      context,
      trx,
      requester,
      { number, name, birthDate, gender, orgUnitId: unitId },
      'patientByNumber',
    );
  }
  const agrees = record.gender === null || gender === null || record.gender === gender;
  if (!agrees && !byNumber.linkWhateverGender) {
    throw new AppError(
      409,
      'patient_gender_differs',
      patientGenderDiffersMessage,
      'patientByNumber.number',
      { existingId: record.id },
    );
  }
  return record;
}

/** Draws of a fresh code before a create gives up: four collisions in a row never happen by chance. */
const maxGeneratedCodeAttempts = 4;

function randomFraction(): number {
  return crypto.randomInt(0, 2 ** 32) / 2 ** 32;
}

export async function createAssessment(
  context: AppContext,
  requester: Requester,
  body: AssessmentBody,
): Promise<{ assessment: Assessment; created: boolean }> {
  const input = patientInput(body);
  const notes = body.notes ?? null;
  if (body.code !== undefined) {
    const existing = await existingForCode(context, requester.scope, body.code, input, notes);
    if (existing !== undefined) return { assessment: existing, created: false };
  }

  const now = context.now();
  const at = now.toISOString();
  const id = timeOrderedId(now.getTime());
  const patientId = timeOrderedId(now.getTime());
  const createdLocalDate = localDate(now, context.config.timeZone);
  const insert = (code: string) =>
    context.database.transaction(async (trx) => {
      // Scored with the rule set active when the save commits: one indexed read.
      const result = score(input, await activeRuleSet(trx));
      const patientRecord = await patientRecordFor(context, trx, requester, body);
      const orgUnitId = await unitForNewRecord(trx, requester.scope, {
        chosenUnitId: body.orgUnitId,
        patientUnitId: patientRecord?.org_unit_id,
        userId: requester.user.id,
      });
      const rows = newAssessmentRows({
        id,
        patientId,
        input,
        result,
        code,
        notes,
        at,
        localDate: createdLocalDate,
        createdBy: requester.user.id,
        patientRecordId: patientRecord?.id ?? null,
        orgUnitId,
        withRiskRank: true,
      });
      await assessmentsRepository.insertPatient(trx, rows.patient);
      await assessmentsRepository.insertAssessment(trx, rows.assessment);
      await assessmentsRepository.insertChildren(trx, context.database.engine, rows);
      await recordAudit(trx, {
        at: now,
        actor: requester.user,
        action: 'assessment_create',
        target: { type: 'assessment', id },
        address: requester.address,
      });
      // A new assessment is live and has no review yet: it counts for its results alone. The
      // counts are the save's last write: the rows every save changes stay locked to the others
      // from here to the commit, not through the rest of this one.
      const counts = new KeptCountChanges();
      for (const row of rows.results) {
        counts.addPopulation(
          {
            local_date: createdLocalDate,
            org_unit_id: orgUnitId,
            condition: row.condition,
            risk_status: row.risk_status,
          },
          1,
        );
      }
      await keptCountsRepository.apply(trx, counts);
      return { rows, patientRecord: patientRecord ?? undefined };
    });

  let written: Awaited<ReturnType<typeof insert>> | undefined;
  for (let attempt = 1; written === undefined; attempt++) {
    const code =
      body.code ?? generateAssessmentCode(now.getTime(), context.randomFraction ?? randomFraction);
    try {
      written = await insert(code);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The new patient's number was taken by a save that raced this one.
      if (body.newPatient !== undefined) {
        const db = context.database.db;
        const unitId = await unitForNewRecord(db, requester.scope, {
          chosenUnitId: body.orgUnitId,
          userId: requester.user.id,
        });
        await assertNumberFree(db, unitId, body.newPatient.number, { field: 'newPatient.number' });
      }
      if (body.code !== undefined) {
        // Two saves of the same new assessment raced; the other one stored it.
        const existing = await existingForCode(context, requester.scope, body.code, input, notes);
        if (existing !== undefined) return { assessment: existing, created: false };
        if (body.patientByNumber === undefined) throw error;
      }
      // A generated code met a stored one (same millisecond, same random part): draw again. A
      // patient named by number was made by a save that raced this one: the next try finds them.
      if (attempt === maxGeneratedCodeAttempts) throw error;
    }
  }
  // The answer is the rows the save wrote (reading them back cost a quarter of a save) and the
  // patient record as its transaction read it; the previous assessment is read once committed.
  const { rows, patientRecord } = written;
  const stored = storedNewAssessment(rows, {
    createdByName: requester.user.displayName,
    patientRecord,
    previous:
      patientRecord === undefined
        ? undefined
        : await patientRecordsRepository.assessmentBefore(
            context.database.db,
            requester.scope,
            patientRecord.id,
            { createdAt: at, id },
          ),
  });
  return { assessment: present(stored), created: true };
}

function assertLive(row: AssessmentRow): void {
  if (row.deleted_at !== null) throw notFound();
}

function assertVersion(row: AssessmentRow, expectedVersion: number): void {
  if (row.version !== expectedVersion) {
    throw new AppError(412, 'stale_version', staleVersionMessage);
  }
}

export async function updateAssessment(
  context: AppContext,
  requester: Requester,
  id: string,
  expectedVersion: number,
  body: AssessmentBody,
): Promise<Assessment> {
  const input = patientInput(body);
  const now = context.now();
  const at = now.toISOString();
  const write = () =>
    context.database.transaction(async (trx) => {
      // An update is scored anew, with the rule set active now, whatever its results had.
      const result = score(input, await activeRuleSet(trx));
      const row = await assessmentsRepository.findAssessment(trx, requester.scope, id);
      if (row === undefined) throw notFound();
      assertLive(row);
      if (row.signed_off) throw new AppError(409, 'signed_off', signedOffUpdateMessage);
      assertVersion(row, expectedVersion);
      if (body.code !== undefined && body.code !== row.assessment_code) {
        throw new AppError(400, 'validation_failed', 'The assessment code cannot change.', 'code');
      }
      // A patient record the update makes is registered where the assessment was done; the
      // assessment keeps its unit.
      const patientRecord = await patientRecordFor(context, trx, requester, {
        ...body,
        orgUnitId: row.org_unit_id,
      });
      const updated = await assessmentsRepository.updateAssessmentAtVersion(
        trx,
        id,
        expectedVersion,
        {
          ...(patientRecord === undefined ? {} : { patient_record_id: patientRecord?.id ?? null }),
          assessment_complete: result.assessmentComplete,
          total_score: result.totalScore,
          notes: body.notes === undefined ? row.notes : body.notes,
          updated_at: at,
        },
      );
      if (!updated) throw new AppError(412, 'stale_version', staleVersionMessage);
      await assessmentsRepository.updatePatient(trx, row.patient_id, patientRow(input, result, at));
      // Read with the assessment's row locked by the write above: a finalized review's rows move
      // with the rules' new status.
      const counts = new KeptCountChanges();
      counts.add(await keptCountsRepository.contributions(trx, id), -1);
      await assessmentsRepository.deleteChildren(trx, id);
      await assessmentsRepository.insertChildren(
        trx,
        context.database.engine,
        childRows(id, input, result),
      );
      counts.add(await keptCountsRepository.contributions(trx, id), 1);
      await recordAudit(trx, {
        at: now,
        actor: requester.user,
        action: 'assessment_update',
        target: { type: 'assessment', id },
        address: requester.address,
      });
      await keptCountsRepository.apply(trx, counts);
    });
  try {
    await write();
  } catch (error) {
    // A patient named by number was made by a save that raced this one: a second try finds them.
    if (!(isUniqueViolation(error) && body.patientByNumber !== undefined)) throw error;
    await write();
  }
  return present(await loadOrThrow(context.database.db, requester.scope, id));
}

type AssessmentChanges = Parameters<typeof assessmentsRepository.updateAssessmentAtVersion>[3];

/**
 * One audited change of an assessment's own row, in one transaction: `decide` checks the row
 * (throwing to refuse) and says what to change. The write succeeds only at the version the user
 * saw (`expectedVersion`, else the version read): the check and the write are one statement, so a
 * change committed by someone else after the read refuses this one (412) on either engine.
 */
async function changeAssessment(
  context: AppContext,
  requester: Requester,
  id: string,
  action: AuditAction,
  expectedVersion: number | undefined,
  decide: (row: AssessmentRow, at: string) => AssessmentChanges,
): Promise<void> {
  const now = context.now();
  await context.database.transaction(async (trx) => {
    const row = await assessmentsRepository.findAssessment(trx, requester.scope, id);
    if (row === undefined) throw notFound();
    const changes = decide(row, now.toISOString());
    if (expectedVersion !== undefined) assertVersion(row, expectedVersion);
    const updated = await assessmentsRepository.updateAssessmentAtVersion(
      trx,
      id,
      expectedVersion ?? row.version,
      changes,
    );
    if (!updated) throw new AppError(412, 'stale_version', staleVersionMessage);
    // A delete or restore takes the assessment out of the kept counts or puts it back. The row's
    // deleted_at is as read: every change of it changes the version, which the write checked. The
    // contributions are read after that write has locked the row, so a review finalized just
    // before is included (and one finalized after finds the assessment deleted).
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action,
      target: { type: 'assessment', id },
      address: requester.address,
    });
    const wasLive = row.deleted_at === null;
    const isLive = changes.deleted_at === undefined ? wasLive : changes.deleted_at === null;
    if (wasLive !== isLive) {
      const counts = new KeptCountChanges();
      counts.add(await keptCountsRepository.contributions(trx, id), isLive ? 1 : -1);
      await keptCountsRepository.apply(trx, counts);
    }
  });
}

export async function signOffAssessment(
  context: AppContext,
  requester: Requester,
  id: string,
  expectedVersion: number,
): Promise<Assessment> {
  await changeAssessment(
    context,
    requester,
    id,
    'assessment_sign_off',
    expectedVersion,
    (row, at) => {
      assertLive(row);
      if (row.signed_off) {
        throw new AppError(409, 'signed_off', 'This assessment is already signed off.');
      }
      return {
        signed_off: true,
        signed_off_at: at,
        signed_off_by: requester.user.displayName,
        signed_off_by_user_id: requester.user.id,
        updated_at: at,
      };
    },
  );
  return present(await loadOrThrow(context.database.db, requester.scope, id));
}

export async function deleteAssessment(
  context: AppContext,
  requester: Requester,
  id: string,
  expectedVersion: number,
): Promise<void> {
  await changeAssessment(
    context,
    requester,
    id,
    'assessment_delete',
    expectedVersion,
    (row, at) => {
      assertLive(row);
      if (row.signed_off && !can(requester.user.role, 'assessment.deleteSignedOff')) {
        throw new AppError(
          403,
          'forbidden',
          'Only an administrator can delete a signed-off assessment.',
        );
      }
      return { deleted_at: at, deleted_by: requester.user.id, updated_at: at };
    },
  );
}

export async function restoreAssessment(
  context: AppContext,
  requester: Requester,
  id: string,
): Promise<Assessment> {
  await changeAssessment(context, requester, id, 'assessment_restore', undefined, (row, at) => {
    if (row.deleted_at === null)
      throw new AppError(409, 'conflict', 'This assessment is not deleted.');
    return { deleted_at: null, deleted_by: null, updated_at: at };
  });
  return present(await loadOrThrow(context.database.db, requester.scope, id));
}

export async function getAssessment(
  context: AppContext,
  requester: Pick<Requester, 'user' | 'scope'>,
  id: string,
): Promise<Assessment> {
  const stored = await loadOrThrow(context.database.db, requester.scope, id);
  if (
    stored.assessment.deleted_at !== null &&
    !can(requester.user.role, 'assessment.viewDeleted')
  ) {
    throw notFound();
  }
  return present(stored);
}

/** A live assessment, for a reader that is not a signed-in user (the FHIR API's tokens). */
export async function getLiveAssessment(
  context: AppContext,
  scope: Scope,
  id: string,
): Promise<Assessment> {
  const stored = await loadOrThrow(context.database.db, scope, id);
  if (stored.assessment.deleted_at !== null) throw notFound();
  return present(stored);
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`).toString('base64url');
}

/**
 * Whether a cursor's time is an instant as the server writes them (ISO-8601 UTC) that both
 * engines can compare: Date.parse alone takes `1`, rolls 2026-02-30 over into March and reads
 * years PostgreSQL refuses.
 */
function isCursorInstant(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/.test(text)) return false;
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed) || text.startsWith('0000')) return false;
  return new Date(parsed).toISOString().slice(0, 19) === text.slice(0, 19);
}

function decodeCursor(text: string): Cursor {
  const [createdAt, id] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (
    createdAt === undefined ||
    id === undefined ||
    !isCursorInstant(createdAt) ||
    id.includes('\u0000')
  ) {
    throw new AppError(400, 'validation_failed', 'cursor: Invalid cursor', 'cursor');
  }
  return { createdAt, id };
}

/** The history's search words and whole days in the clinic's time zone, as a filter. */
export function historyFilter(
  query: { q?: string | undefined; from?: string | undefined; to?: string | undefined },
  timeZone: string,
): AssessmentFilter {
  return {
    ...parseHistorySearch(query.q),
    fromIso: query.from === undefined ? undefined : startOfDay(query.from, timeZone).toISOString(),
    toIso: query.to === undefined ? undefined : endOfDayExclusive(query.to, timeZone).toISOString(),
  };
}

export async function listAssessments(
  context: AppContext,
  scope: Scope,
  query: ListQuery,
): Promise<AssessmentList> {
  const { db, engine } = context.database;
  const filter = historyFilter(query, context.config.timeZone);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const [rows, total, overallTotal] = await Promise.all([
    assessmentsRepository.list(db, engine, scope, filter, query.limit + 1, after),
    assessmentsRepository.count(db, engine, scope, filter),
    assessmentsRepository.count(db, engine, scope, { textTerms: [], numberTerms: [] }),
  ]);
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return {
    items: items.map(presentSummary),
    total,
    overallTotal,
    nextCursor:
      rows.length > query.limit && last !== undefined
        ? encodeCursor({ createdAt: last.created_at, id: last.id })
        : null,
  };
}
