import type { Insertable, Selectable } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { AssessmentsTable, DoctorReviewsTable, ResultsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type ReviewRow = Selectable<DoctorReviewsTable>;
export type ReviewedAssessment = Pick<Selectable<AssessmentsTable>, 'id' | 'deleted_at'>;

/**
 * The decided rows of finalized reviews of live assessments, counted per condition and the rules'
 * risk status; a condition the doctor left untouched is in no count.
 */
export interface AgreementCountRow {
  condition: string;
  risk_status: ResultsTable['risk_status'];
  reviewed: number;
  agreed: number;
}

export const reviewsRepository = {
  findAssessment(db: Executor, id: string): Promise<ReviewedAssessment | undefined> {
    return db
      .selectFrom('assessments')
      .select(['id', 'deleted_at'])
      .where('id', '=', id)
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
    id: string,
    engine: DatabaseEngine,
  ): Promise<ReviewedAssessment | undefined> {
    const query = db.selectFrom('assessments').select(['id', 'deleted_at']).where('id', '=', id);
    return (engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  },

  list(db: Executor, assessmentId: string): Promise<ReviewRow[]> {
    return db
      .selectFrom('doctor_reviews')
      .selectAll()
      .where('assessment_id', '=', assessmentId)
      .orderBy('condition')
      .execute();
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

  /** Counts come back as numbers on both engines (the PostgreSQL pool parses bigint). */
  agreementCounts(db: Executor): Promise<AgreementCountRow[]> {
    return db
      .selectFrom('doctor_reviews')
      .innerJoin('assessments', 'assessments.id', 'doctor_reviews.assessment_id')
      .innerJoin('results', (join) =>
        join
          .onRef('results.assessment_id', '=', 'doctor_reviews.assessment_id')
          .onRef('results.condition', '=', 'doctor_reviews.condition'),
      )
      .where('doctor_reviews.locked', '=', true)
      .where('doctor_reviews.decided', '=', true)
      .where('assessments.deleted_at', 'is', null)
      .groupBy(['doctor_reviews.condition', 'results.risk_status'])
      .select((eb) => [
        'doctor_reviews.condition',
        'results.risk_status',
        eb.fn.countAll<number>().as('reviewed'),
        eb.fn
          .sum<number>(eb.case().when('doctor_reviews.agreed', '=', true).then(1).else(0).end())
          .as('agreed'),
      ])
      .execute();
  },
};
