import type { Selectable } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { DoctorReviewsTable } from '../schema.ts';
import type {
  AssessmentFilter,
  ManagementRow,
  PatientRow,
  ResultRow,
  RiskFactorsRow,
  SymptomRow,
} from './assessments.ts';
import type { Executor } from './executor.ts';
import { assessmentPage, inPages } from './exports.ts';

/** The stored status of one condition of an assessment. */
export type StoredStatusRow = Pick<ResultRow, 'assessment_id' | 'condition' | 'risk_status'>;

/** A decided row of a finalized doctor review: what the doctor chose for one condition. */
export type LockedReviewRow = Pick<
  Selectable<DoctorReviewsTable>,
  'assessment_id' | 'condition' | 'agreed' | 'doctor_status'
>;

/** One assessment of a page as the impact analysis reads it: its id and its patient's row. */
export interface RescoredAssessmentRow {
  id: string;
  created_at: string;
  patient: PatientRow;
}

/** A page of live assessments with the rows the re-scoring and the agreement read. */
export interface ImpactPage {
  assessments: RescoredAssessmentRow[];
  symptoms: SymptomRow[];
  riskFactors: RiskFactorsRow[];
  management: ManagementRow[];
  results: StoredStatusRow[];
  reviews: LockedReviewRow[];
}

export const ruleSetImpactRepository = {
  /**
   * Live assessments matching the filter, newest first, a page at a time in the exports' keyset
   * order, each page's child rows read by one statement per table for the page's ids. Nothing is
   * kept between pages. The answers are those that score: the patient data rebuilt from them
   * scores as the whole record does.
   */
  async *pages(
    db: Executor,
    engine: DatabaseEngine,
    filter: AssessmentFilter,
  ): AsyncGenerator<ImpactPage> {
    const assessmentPages = inPages((after) =>
      assessmentPage(db, engine, filter, after)
        .select([
          'assessments.id',
          'assessments.created_at',
          'patients.id as patient_id',
          'patients.age',
          'patients.gender',
          'patients.height',
          'patients.weight',
          'patients.bmi',
          'patients.updated_at as patient_updated_at',
        ])
        .execute(),
    );
    for await (const rows of assessmentPages) {
      const ids = rows.map((row) => row.id);
      // Only the rows that can move a score: the engine reads a symptom answered absent as one
      // not answered, and a condition's management only when it is diagnosed. More than half of
      // the symptom rows are absent ones, and reading rows is most of an analysis's time.
      const symptoms = await db
        .selectFrom('symptoms')
        .selectAll()
        .where('assessment_id', 'in', ids)
        .where('present', '=', true)
        .execute();
      const riskFactors = await db
        .selectFrom('risk_factors')
        .selectAll()
        .where('assessment_id', 'in', ids)
        .execute();
      const management = await db
        .selectFrom('management')
        .selectAll()
        .where('assessment_id', 'in', ids)
        .where('diagnosed', '=', true)
        .execute();
      const results = await db
        .selectFrom('results')
        .select(['assessment_id', 'condition', 'risk_status'])
        .where('assessment_id', 'in', ids)
        .execute();
      const reviews = await db
        .selectFrom('doctor_reviews')
        .select(['assessment_id', 'condition', 'agreed', 'doctor_status'])
        .where('assessment_id', 'in', ids)
        .where('locked', '=', true)
        .where('decided', '=', true)
        .execute();
      yield {
        assessments: rows.map((row) => ({
          id: row.id,
          created_at: row.created_at,
          patient: {
            id: row.patient_id,
            age: row.age,
            gender: row.gender,
            height: row.height,
            weight: row.weight,
            bmi: row.bmi,
            updated_at: row.patient_updated_at,
          },
        })),
        symptoms,
        riskFactors,
        management,
        results,
        reviews,
      };
    }
  },
};
