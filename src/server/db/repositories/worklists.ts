import { sql } from 'kysely';
import { scopeCondition, withinScope, type Scope } from '../../auth/scope.ts';
import type { DatabaseEngine } from '../database.ts';
import type { ResultsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

/** Where Awaiting Review continues: the last row shown. */
export interface ReviewCursor {
  rank: number;
  signedOffAt: string;
  id: string;
}

export interface ReviewWorklistRow {
  id: string;
  assessment_code: string | null;
  risk_rank: number;
  signed_off_at: string;
  signed_off_by: string | null;
  patient_id: string | null;
  patient_number: string | null;
  patient_name: string | null;
}

export interface FollowUpRow {
  patient_record_id: string;
  assessment_id: string;
  level: number;
  assessed_at: string;
  number: string;
  name: string | null;
  assessment_code: string | null;
}

export interface ConditionRow {
  assessment_id: string;
  condition: string;
  risk_status: ResultsTable['risk_status'];
}

/**
 * The terms of the partial index assessments_review_worklist_idx, word for word: SQLite uses a
 * partial index only for a query that names its terms.
 */
function awaitingReview(engine: DatabaseEngine) {
  return engine === 'postgres'
    ? sql<boolean>`assessments.signed_off and not assessments.review_locked and assessments.deleted_at is null`
    : sql<boolean>`assessments.signed_off = 1 and assessments.review_locked = 0 and assessments.deleted_at is null`;
}

export const worklistsRepository = {
  /**
   * Awaiting Review in its order (rank, sign-off time, id), read from its partial index. SQLite
   * is told the index: its planner preferred the history's index of signed-off assessments and
   * sorted every one of them.
   */
  async awaitingReview(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    limit: number,
    after?: ReviewCursor,
  ): Promise<ReviewWorklistRow[]> {
    const indexed = engine === 'sqlite' ? sql`indexed by assessments_review_worklist_idx` : sql``;
    const at =
      after === undefined
        ? undefined
        : engine === 'postgres'
          ? sql`${after.signedOffAt}::timestamptz`
          : sql`${after.signedOffAt}`;
    const from =
      after === undefined || at === undefined
        ? sql``
        : sql`and (assessments.risk_rank, assessments.signed_off_at, assessments.id) > (${after.rank}, ${at}, ${after.id})`;
    const { rows } = await sql<ReviewWorklistRow>`
      select assessments.id, assessments.assessment_code, assessments.risk_rank,
        assessments.signed_off_at, assessments.signed_off_by,
        patient_records.id as patient_id, patient_records.number as patient_number,
        patient_records.name as patient_name
      from assessments ${indexed}
      left join patient_records on patient_records.id = assessments.patient_record_id
      where ${awaitingReview(engine)} ${from}
        and ${scopeCondition('assessments.org_unit_id', scope)}
      order by assessments.risk_rank, assessments.signed_off_at, assessments.id
      limit ${limit}`.execute(db);
    return rows;
  },

  /**
   * The patients due at one level, by assessment time then patient record id, after the row
   * whose time is `afterAssessedAt` (or from the start): patients registered within the scope.
   */
  followUps(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    level: number,
    limit: number,
    after?: { assessedAt: string; patientRecordId: string },
  ): Promise<FollowUpRow[]> {
    let query = db
      .selectFrom('patient_follow_ups')
      .innerJoin('patient_records', 'patient_records.id', 'patient_follow_ups.patient_record_id')
      .innerJoin('assessments', 'assessments.id', 'patient_follow_ups.assessment_id')
      .where('patient_follow_ups.level', '=', level)
      .$call(withinScope('patient_records.org_unit_id', scope));
    if (after !== undefined) {
      const at =
        engine === 'postgres' ? sql`${after.assessedAt}::timestamptz` : sql`${after.assessedAt}`;
      query = query.where(
        sql<boolean>`(patient_follow_ups.assessed_at, patient_follow_ups.patient_record_id) > (${at}, ${after.patientRecordId})`,
      );
    }
    return query
      .select([
        'patient_follow_ups.patient_record_id',
        'patient_follow_ups.assessment_id',
        'patient_follow_ups.level',
        'patient_follow_ups.assessed_at',
        'patient_records.number',
        'patient_records.name',
        'assessments.assessment_code',
      ])
      .orderBy('patient_follow_ups.assessed_at')
      .orderBy('patient_follow_ups.patient_record_id')
      .limit(limit)
      .execute();
  },

  /**
   * The length of a list within the scope. The database keeps each list's length over every unit
   * (its row plus the changes not yet folded in); a narrower scope counts its own rows.
   */
  async total(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    list: 'review' | 'follow_up',
  ): Promise<number> {
    if (scope.kind !== 'everything') {
      const counted =
        list === 'review'
          ? // SQLite is told the units' partial index of Awaiting Review: its planner took the
            // index of signed-off assessments and read every one (580 ms for a district at
            // 1,000,000; 7 ms told).
            await sql<{ n: number | string }>`select count(*) as n from assessments
              ${engine === 'sqlite' ? sql`indexed by assessments_awaiting_review_unit_idx` : sql``}
              where ${awaitingReview(engine)}
                and ${scopeCondition('assessments.org_unit_id', scope)}`.execute(db)
          : await sql<{ n: number | string }>`select count(*) as n from patient_follow_ups
              join patient_records on patient_records.id = patient_follow_ups.patient_record_id
              where ${scopeCondition('patient_records.org_unit_id', scope)}`.execute(db);
      return Number(counted.rows[0]?.n ?? 0);
    }
    return this.keptTotal(db, list);
  },

  /** A list's length over every unit as the database keeps it: its row plus its deltas. */
  async keptTotal(db: Executor, list: 'review' | 'follow_up'): Promise<number> {
    const { rows } = await sql<{ total: number | string | null }>`
      select sum(total) as total from (
        select total from worklist_totals where list = ${list}
        union all
        select total from worklist_total_deltas where list = ${list}
      ) kept`.execute(db);
    return Number(rows[0]?.total ?? 0);
  },

  /** The conditions at High or Moderate of the given assessments. */
  conditions(db: Executor, assessmentIds: readonly string[]): Promise<ConditionRow[]> {
    if (assessmentIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('results')
      .select(['assessment_id', 'condition', 'risk_status'])
      .where('assessment_id', 'in', assessmentIds)
      .where('risk_status', 'in', ['TRUE', 'MAYBE'])
      .execute();
  },
};
