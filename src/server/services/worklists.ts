import { CONDITIONS, type Condition } from '../../engine/index.ts';
import type { Scope } from '../auth/scope.ts';
import {
  worklistReason,
  type FollowUpList,
  type ReviewWorklist,
  type WorklistCondition,
} from '../../shared/api/worklists.ts';
import type { AppContext } from '../context.ts';
import {
  worklistsRepository,
  type ConditionRow,
  type FollowUpRow,
  type ReviewCursor,
} from '../db/repositories/worklists.ts';
import { AppError } from '../errors.ts';
import { localDate } from '../time.ts';
import type { Requester } from '../auth/requester.ts';
import { recordAudit } from './audit.ts';

const dayMs = 86_400_000;

function invalidCursor(): AppError {
  return new AppError(400, 'validation_failed', 'cursor: Invalid cursor', 'cursor');
}

function encode(parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

function decode(text: string): unknown[] {
  try {
    const parts: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(parts)) return parts;
  } catch {
    // Refused below like any other malformed cursor.
  }
  throw invalidCursor();
}

const isInstant = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) &&
  new Date(Date.parse(value)).toISOString() === value;

const isId = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 100 && !value.includes('\0');

function decodeReviewCursor(text: string): ReviewCursor {
  const [rank, signedOffAt, id] = decode(text);
  if (
    typeof rank !== 'number' ||
    ![0, 1, 2].includes(rank) ||
    !isInstant(signedOffAt) ||
    !isId(id)
  ) {
    throw invalidCursor();
  }
  return { rank, signedOffAt, id };
}

function decodeFollowUpCursor(text: string): { dueMs: number; patientRecordId: string } {
  const [dueMs, patientRecordId] = decode(text);
  if (
    typeof dueMs !== 'number' ||
    !Number.isSafeInteger(dueMs) ||
    !isInstant(new Date(dueMs).toISOString()) ||
    !isId(patientRecordId)
  ) {
    throw invalidCursor();
  }
  return { dueMs, patientRecordId };
}

/** Each assessment's conditions at High, then at Moderate, in the engine's order of conditions. */
function conditionsByAssessment(rows: readonly ConditionRow[]): Map<string, WorklistCondition[]> {
  const order = (condition: string) => CONDITIONS.indexOf(condition as Condition);
  const sorted = [...rows].sort(
    (a, b) =>
      (a.risk_status === 'TRUE' ? 0 : 1) - (b.risk_status === 'TRUE' ? 0 : 1) ||
      order(a.condition) - order(b.condition),
  );
  const byAssessment = new Map<string, WorklistCondition[]>();
  for (const row of sorted) {
    if (row.risk_status !== 'TRUE' && row.risk_status !== 'MAYBE') continue;
    const list = byAssessment.get(row.assessment_id) ?? [];
    list.push({ condition: row.condition as Condition, riskStatus: row.risk_status });
    byAssessment.set(row.assessment_id, list);
  }
  return byAssessment;
}

/**
 * Signed-off live assessments without a finalized review: any condition at High first, then at
 * Moderate, then the longest wait since sign-off, ties by id.
 */
export async function reviewWorklist(
  context: AppContext,
  scope: Scope,
  query: { limit: number; cursor?: string | undefined },
): Promise<ReviewWorklist> {
  const { db, engine } = context.database;
  const after = query.cursor === undefined ? undefined : decodeReviewCursor(query.cursor);
  const [rows, total] = await Promise.all([
    worklistsRepository.awaitingReview(db, engine, scope, query.limit + 1, after),
    worklistsRepository.total(db, engine, scope, 'review'),
  ]);
  const page = rows.slice(0, query.limit);
  const conditions = conditionsByAssessment(
    await worklistsRepository.conditions(
      db,
      page.map((row) => row.id),
    ),
  );
  const last = page.at(-1);
  return {
    items: page.map((row) => {
      const listed = conditions.get(row.id) ?? [];
      return {
        assessmentId: row.id,
        code: row.assessment_code,
        patientId: row.patient_id,
        patientNumber: row.patient_number,
        patientName: row.patient_name,
        signedOffAt: row.signed_off_at,
        signedOffBy: row.signed_off_by,
        conditions: listed,
        reason: worklistReason(listed),
      };
    }),
    total,
    nextCursor:
      rows.length > query.limit && last !== undefined
        ? encode([last.risk_rank, last.signed_off_at, last.id])
        : null,
  };
}

/** The calendar date `days` after a YYYY-MM-DD date. */
function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs);
}

/**
 * Patients whose latest live assessment has a condition at High (due FOLLOW_UP_DAYS_HIGH after
 * it) or at Moderate (due FOLLOW_UP_DAYS_MODERATE after it), the earliest due first. The
 * database keeps each level's patients in order of the assessment's time, so a page is the first
 * rows of the two levels merged by due time.
 */
export async function followUpList(
  context: AppContext,
  requester: Requester,
  query: { limit: number; cursor?: string | undefined },
): Promise<FollowUpList> {
  const { db, engine } = context.database;
  const { timeZone, followUpDaysHigh, followUpDaysModerate } = context.config;
  const intervals = [followUpDaysHigh, followUpDaysModerate];
  const after = query.cursor === undefined ? undefined : decodeFollowUpCursor(query.cursor);
  const [levels, total] = await Promise.all([
    Promise.all(
      intervals.map((days, level) =>
        worklistsRepository.followUps(
          db,
          engine,
          requester.scope,
          level,
          query.limit + 1,
          after === undefined
            ? undefined
            : {
                assessedAt: new Date(after.dueMs - days * dayMs).toISOString(),
                patientRecordId: after.patientRecordId,
              },
        ),
      ),
    ),
    worklistsRepository.total(db, engine, requester.scope, 'follow_up'),
  ]);
  const dueMs = (row: FollowUpRow) =>
    Date.parse(row.assessed_at) + (intervals[row.level] ?? followUpDaysModerate) * dayMs;
  const merged = levels
    .flat()
    .sort(
      (a, b) =>
        dueMs(a) - dueMs(b) ||
        (a.patient_record_id < b.patient_record_id
          ? -1
          : a.patient_record_id > b.patient_record_id
            ? 1
            : 0),
    );
  const page = merged.slice(0, query.limit);
  const conditions = conditionsByAssessment(
    await worklistsRepository.conditions(
      db,
      page.map((row) => row.assessment_id),
    ),
  );
  // The list names patients: reading it is recorded as a patient search is.
  await recordAudit(db, {
    at: context.now(),
    actor: requester.user,
    action: 'follow_up_list_view',
    address: requester.address,
  });
  const today = localDate(context.now(), timeZone);
  const last = page.at(-1);
  return {
    items: page.map((row) => {
      const days = intervals[row.level] ?? followUpDaysModerate;
      const dueDate = addDays(localDate(new Date(row.assessed_at), timeZone), days);
      const listed = conditions.get(row.assessment_id) ?? [];
      return {
        patient: { id: row.patient_record_id, number: row.number, name: row.name },
        assessment: {
          id: row.assessment_id,
          code: row.assessment_code,
          createdAt: row.assessed_at,
        },
        level: row.level === 0 ? ('High' as const) : ('Moderate' as const),
        conditions: listed,
        dueDate,
        daysOverdue: daysBetween(dueDate, today),
        reason: worklistReason(listed),
      };
    }),
    total,
    nextCursor:
      merged.length > query.limit && last !== undefined
        ? encode([dueMs(last), last.patient_record_id])
        : null,
  };
}
