import { sql, type ExpressionBuilder } from 'kysely';
import { withinScope, type Scope } from '../../auth/scope.ts';
import type { Database } from '../schema.ts';
import type { Executor } from './executor.ts';
import type { PatientRecordRow } from './patient-records.ts';

/**
 * The orders a RiskAssessment search gives a Patient's assessments in: `-date` newest first (the
 * default), `date` oldest first, `_lastUpdated` least recently changed first.
 */
export type AssessmentOrder = 'date' | '-date' | '_lastUpdated';

/** Where a page of a patient record's assessments starts: the order's key and the id. */
export interface AssessmentPosition {
  /** The creation time (`date`, `-date`) or the last change (`_lastUpdated`). */
  key: string;
  id: string;
}

/** A bound of `_lastUpdated`: a comparison and an instant (ISO-8601 UTC). */
export interface LastUpdatedBound {
  prefix: 'gt' | 'ge' | 'lt' | 'le';
  value: string;
}

const operators = { gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/**
 * An assessment's last change as its FHIR resources show it: the later of its own update and its
 * review's last write (services/fhir.ts, meta.lastUpdated).
 */
export const lastUpdated = sql<string>`case when assessments.reviewed_at is not null and assessments.reviewed_at > assessments.updated_at then assessments.reviewed_at else assessments.updated_at end`;

function keyOf(order: AssessmentOrder) {
  return order === '_lastUpdated' ? lastUpdated : sql<string>`assessments.created_at`;
}

function withinBounds(eb: ExpressionBuilder<Database, 'assessments'>, bounds: LastUpdatedBound[]) {
  return eb.and(bounds.map((bound) => eb(lastUpdated, operators[bound.prefix], bound.value)));
}

/**
 * What the FHIR read API reads beyond one assessment: a patient record's live assessments, and
 * the patient records themselves, each within the reader's scope.
 */
export const fhirReadsRepository = {
  /**
   * The live assessments of a patient record within the bounds, from `from` (itself included)
   * on, in the order asked for: a range of the record's timeline index for the dates.
   */
  liveAssessmentsFrom(
    db: Executor,
    scope: Scope,
    recordId: string,
    query: { order: AssessmentOrder; bounds: LastUpdatedBound[] },
    from: AssessmentPosition | undefined,
    limit: number,
  ): Promise<AssessmentPosition[]> {
    const key = keyOf(query.order);
    const descending = query.order === '-date';
    let select = db
      .selectFrom('assessments')
      .select([key.as('key'), 'id'])
      .where('patient_record_id', '=', recordId)
      .where('deleted_at', 'is', null)
      .where((eb) => withinBounds(eb, query.bounds))
      .$call(withinScope('assessments.org_unit_id', scope));
    if (from !== undefined) {
      select = select.where((eb) =>
        eb.or([
          eb(key, descending ? '<' : '>', from.key),
          eb.and([eb(key, '=', from.key), eb('id', descending ? '<=' : '>=', from.id)]),
        ]),
      );
    }
    const direction = descending ? 'desc' : 'asc';
    return select.orderBy(key, direction).orderBy('id', direction).limit(limit).execute();
  },

  /** The live patient record of that id, if it belongs to a unit of the scope. */
  livePatientRecord(db: Executor, scope: Scope, id: string): Promise<PatientRecordRow | undefined> {
    return db
      .selectFrom('patient_records')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .$call(withinScope('patient_records.org_unit_id', scope))
      .executeTakeFirst();
  },

  /** How many results (one RiskAssessment each) the record's live assessments within the bounds have. */
  async liveResultCount(
    db: Executor,
    scope: Scope,
    recordId: string,
    bounds: LastUpdatedBound[],
  ): Promise<number> {
    const row = await db
      .selectFrom('results')
      .innerJoin('assessments', 'assessments.id', 'results.assessment_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('assessments.patient_record_id', '=', recordId)
      .where('assessments.deleted_at', 'is', null)
      .where((eb) => withinBounds(eb, bounds))
      .$call(withinScope('assessments.org_unit_id', scope))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** How many times the assessment's review was written, and when last (null: never). */
  async reviewRevision(
    db: Executor,
    scope: Scope,
    assessmentId: string,
  ): Promise<{ version: number; at: string | null }> {
    const row = await db
      .selectFrom('assessments')
      .select(['review_version', 'reviewed_at'])
      .where('id', '=', assessmentId)
      .$call(withinScope('assessments.org_unit_id', scope))
      .executeTakeFirst();
    return { version: row?.review_version ?? 0, at: row?.reviewed_at ?? null };
  },
};
