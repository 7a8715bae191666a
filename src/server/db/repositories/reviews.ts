import { sql, type Insertable, type Selectable } from 'kysely';
import { withinScope, type Scope } from '../../auth/scope.ts';
import type { DatabaseEngine } from '../database.ts';
import type { AssessmentsTable, DoctorReviewsTable, ResultsTable } from '../schema.ts';
import { readBooleans, type Executor, type WithBooleans } from './executor.ts';

export type ReviewRow = WithBooleans<Selectable<DoctorReviewsTable>>;

/** The boolean columns of a review row, which readBooleans reads in place. */
export const reviewBooleanColumns = ['agreed', 'locked', 'decided'] as const;
export type ReviewedAssessment = Pick<Selectable<AssessmentsTable>, 'id' | 'deleted_at'>;

/** A disagreeing review's comment, when it was made, and the two statuses. */
export type DisagreementRow = Pick<
  Selectable<DoctorReviewsTable>,
  'comments' | 'created_at' | 'doctor_status'
> &
  Pick<Selectable<ResultsTable>, 'risk_status'>;

export const reviewsRepository = {
  /** The assessment a review belongs to, if it lies within the scope. */
  findAssessment(db: Executor, scope: Scope, id: string): Promise<ReviewedAssessment | undefined> {
    return db
      .selectFrom('assessments')
      .select(['id', 'deleted_at'])
      .where('id', '=', id)
      .$call(withinScope('org_unit_id', scope))
      .executeTakeFirst();
  },

  /**
   * The assessment a review change belongs to. On PostgreSQL its row stays locked until the
   * transaction ends, so changes to one review run one after another and none can slip between
   * another's locked check and its write. SQLite has a single writer already and knows no
   * `for update`.
   */
  findAssessmentForChange(
    db: Executor,
    scope: Scope,
    id: string,
    engine: DatabaseEngine,
  ): Promise<ReviewedAssessment | undefined> {
    const query = db
      .selectFrom('assessments')
      .select(['id', 'deleted_at'])
      .where('id', '=', id)
      .$call(withinScope('org_unit_id', scope));
    return (engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  },

  async list(db: Executor, assessmentId: string): Promise<ReviewRow[]> {
    const rows = await db
      .selectFrom('doctor_reviews')
      .selectAll()
      .where('assessment_id', '=', assessmentId)
      .orderBy('condition')
      .execute();
    return rows.map((row) => readBooleans(row, reviewBooleanColumns));
  },

  async isLocked(db: Executor, assessmentId: string): Promise<boolean> {
    const row = await db
      .selectFrom('doctor_reviews')
      .select('id')
      .where('assessment_id', '=', assessmentId)
      .where('locked', '=', true)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Replaces every row of the assessment's review; call it inside a transaction. */
  async replace(
    db: Executor,
    assessmentId: string,
    rows: Insertable<DoctorReviewsTable>[],
  ): Promise<void> {
    await db.deleteFrom('doctor_reviews').where('assessment_id', '=', assessmentId).execute();
    await db.insertInto('doctor_reviews').values(rows).execute();
  },

  /** Counts a write of the assessment's review, at `at`: its FHIR RiskAssessments' version. */
  async countReviewWrite(db: Executor, assessmentId: string, at: string): Promise<void> {
    await db
      .updateTable('assessments')
      .set((eb) => ({ review_version: eb('review_version', '+', 1), reviewed_at: at }))
      .where('id', '=', assessmentId)
      .execute();
  },

  /**
   * The latest comments of disagreeing, decided rows of finalized reviews of live assessments for
   * one condition, newest first; with dates, of the assessments made within them. Read through
   * the index of such rows (migration kept-counts), whose condition the query repeats word for
   * word so that SQLite uses it.
   */
  latestDisagreements(
    db: Executor,
    engine: DatabaseEngine,
    condition: string,
    range: { from?: string | undefined; to?: string | undefined },
    scope: Scope,
    limit: number,
  ): Promise<DisagreementRow[]> {
    const yes = sql.raw(engine === 'postgres' ? 'true' : '1');
    return db
      .selectFrom('doctor_reviews')
      .innerJoin('assessments', 'assessments.id', 'doctor_reviews.assessment_id')
      .innerJoin('results', (join) =>
        join
          .onRef('results.assessment_id', '=', 'doctor_reviews.assessment_id')
          .onRef('results.condition', '=', 'doctor_reviews.condition'),
      )
      .select([
        'doctor_reviews.comments',
        'doctor_reviews.created_at',
        'doctor_reviews.doctor_status',
        'results.risk_status',
      ])
      .where('doctor_reviews.condition', '=', condition)
      .where(
        sql<boolean>`doctor_reviews.locked = ${yes} and doctor_reviews.decided = ${yes}
          and doctor_reviews.agreed <> ${yes} and doctor_reviews.comments <> ''`,
      )
      .where('assessments.deleted_at', 'is', null)
      .$call(withinScope('assessments.org_unit_id', scope))
      .$if(range.from !== undefined, (q) =>
        q.where('assessments.created_local_date', '>=', range.from ?? ''),
      )
      .$if(range.to !== undefined, (q) =>
        q.where('assessments.created_local_date', '<=', range.to ?? ''),
      )
      .orderBy('doctor_reviews.created_at', 'desc')
      .orderBy('doctor_reviews.id', 'desc')
      .limit(limit)
      .execute();
  },
};
