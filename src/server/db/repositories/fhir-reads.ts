import type { Executor } from './executor.ts';

/** Where a page of a patient record's assessments starts, newest first. */
export interface AssessmentPosition {
  createdAt: string;
  id: string;
}

/** What the FHIR read API reads beyond one assessment: a patient record's live assessments. */
export const fhirReadsRepository = {
  /**
   * The live assessments of a patient record from `from` (itself included) on, newest first:
   * a range of the record's timeline index.
   */
  liveAssessmentsFrom(
    db: Executor,
    recordId: string,
    from: AssessmentPosition | undefined,
    limit: number,
  ): Promise<AssessmentPosition[]> {
    let query = db
      .selectFrom('assessments')
      .select(['created_at as createdAt', 'id'])
      .where('patient_record_id', '=', recordId)
      .where('deleted_at', 'is', null);
    if (from !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', from.createdAt),
          eb.and([eb('created_at', '=', from.createdAt), eb('id', '<=', from.id)]),
        ]),
      );
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  },

  /** How many results (one RiskAssessment each) the record's live assessments have. */
  async liveResultCount(db: Executor, recordId: string): Promise<number> {
    const row = await db
      .selectFrom('results')
      .innerJoin('assessments', 'assessments.id', 'results.assessment_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('assessments.patient_record_id', '=', recordId)
      .where('assessments.deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** How many times the assessment's review was written, and when last (null: never). */
  async reviewRevision(
    db: Executor,
    assessmentId: string,
  ): Promise<{ version: number; at: string | null }> {
    const row = await db
      .selectFrom('assessments')
      .select(['review_version', 'reviewed_at'])
      .where('id', '=', assessmentId)
      .executeTakeFirst();
    return { version: row?.review_version ?? 0, at: row?.reviewed_at ?? null };
  },
};
