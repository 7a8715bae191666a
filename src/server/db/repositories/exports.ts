import type { Selectable } from 'kysely';
import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import type { DatabaseEngine } from '../database.ts';
import type { DoctorReviewsTable } from '../schema.ts';
import {
  filteredAssessments,
  type AssessmentFilter,
  type Cursor,
  type StoredAssessment,
} from './assessments.ts';
import type { Executor } from './executor.ts';

/** What an export shows of a doctor review: the comments per condition and the lock. */
export type ConditionReview = Pick<
  Selectable<DoctorReviewsTable>,
  'condition' | 'agreed' | 'comments' | 'reviewed_by' | 'locked'
>;

/** One assessment with every row hanging off it, as a bulk export reads it. */
export interface ExportRecord extends StoredAssessment {
  reviews: ConditionReview[];
}

/** The figures a bulk report opens with, over the same assessments it then lists. */
export interface ExportSummary {
  count: number;
  complete: number;
  signedOff: number;
  /** null when there are no assessments. */
  averageTotalScore: number | null;
}

/** Rows read per round trip: what an export holds in memory at most. */
const pageSize = 200;

/** SQLite returns an aggregated JSON column as text; pg parses json columns itself. */
function jsonRows<T>(column: T[]): T[] {
  const value: unknown = column;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T[];
}

function recordsQuery(db: Executor, engine: DatabaseEngine, filter: AssessmentFilter) {
  // Each child table comes back as one JSON array per assessment, so that one row is one whole
  // record and an export is one query however many child rows there are.
  const jsonArrayFrom: typeof sqliteJsonArrayFrom =
    engine === 'postgres' ? postgresJsonArrayFrom : sqliteJsonArrayFrom;
  return filteredAssessments(db, engine, filter)
    .innerJoin('patients', 'patients.id', 'assessments.patient_id')
    .leftJoin('risk_factors', 'risk_factors.assessment_id', 'assessments.id')
    .leftJoin('users', 'users.id', 'assessments.created_by')
    .selectAll('assessments')
    .select([
      'patients.age',
      'patients.gender',
      'patients.height',
      'patients.weight',
      'patients.bmi',
      'patients.updated_at as patient_updated_at',
      'users.display_name as created_by_name',
      'risk_factors.assessment_id as risk_factors_assessment_id',
      'risk_factors.smoking',
      'risk_factors.family_history_dm2',
      'risk_factors.family_history_asthma',
      'risk_factors.family_history_hypertension',
      'risk_factors.family_history_hyperlipidaemia',
      'risk_factors.household_tb_exposure',
    ])
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('symptoms')
          .select([
            'symptoms.assessment_id',
            'symptoms.condition',
            'symptoms.symptom_key',
            'symptoms.present',
            'symptoms.severity',
          ])
          .whereRef('symptoms.assessment_id', '=', 'assessments.id'),
      ).as('symptoms'),
      jsonArrayFrom(
        eb
          .selectFrom('management')
          .select([
            'management.assessment_id',
            'management.condition',
            'management.diagnosed',
            'management.last_doctor_visit',
            'management.prescription_duration',
          ])
          .whereRef('management.assessment_id', '=', 'assessments.id'),
      ).as('management'),
      jsonArrayFrom(
        eb
          .selectFrom('results')
          .select([
            'results.assessment_id',
            'results.condition',
            'results.total_score',
            'results.factor_count',
            'results.risk_status',
            'results.symptom_score',
            'results.risk_factor_score',
            'results.management_score',
            'results.comorbidity_score',
            'results.threshold',
            'results.rule_set_version',
          ])
          .whereRef('results.assessment_id', '=', 'assessments.id'),
      ).as('results'),
      jsonArrayFrom(
        eb
          .selectFrom('doctor_reviews')
          .select([
            'doctor_reviews.condition',
            'doctor_reviews.agreed',
            'doctor_reviews.comments',
            'doctor_reviews.reviewed_by',
            'doctor_reviews.locked',
          ])
          .whereRef('doctor_reviews.assessment_id', '=', 'assessments.id'),
      ).as('reviews'),
    ])
    .orderBy('assessments.created_at', 'desc')
    .orderBy('assessments.id', 'desc');
}

type RecordRow = Awaited<ReturnType<ReturnType<typeof recordsQuery>['executeTakeFirstOrThrow']>>;

function toRecord(row: RecordRow): ExportRecord {
  const {
    age,
    gender,
    height,
    weight,
    bmi,
    patient_updated_at,
    created_by_name,
    risk_factors_assessment_id,
    smoking,
    family_history_dm2,
    family_history_asthma,
    family_history_hypertension,
    family_history_hyperlipidaemia,
    household_tb_exposure,
    symptoms,
    management,
    results,
    reviews,
    ...assessment
  } = row;
  return {
    assessment,
    patient: {
      id: assessment.patient_id,
      age,
      gender,
      height,
      weight,
      bmi,
      updated_at: patient_updated_at,
    },
    riskFactors:
      risk_factors_assessment_id === null
        ? undefined
        : {
            assessment_id: risk_factors_assessment_id,
            smoking,
            family_history_dm2,
            family_history_asthma,
            family_history_hypertension,
            family_history_hyperlipidaemia,
            household_tb_exposure,
          },
    symptoms: jsonRows(symptoms),
    management: jsonRows(management),
    results: jsonRows(results),
    reviews: jsonRows(reviews),
    createdByName: created_by_name,
  };
}

export const exportsRepository = {
  /** Live assessments matching the filter, newest first, a bounded number of rows at a time. */
  async *records(
    db: Executor,
    engine: DatabaseEngine,
    filter: AssessmentFilter,
  ): AsyncIterableIterator<ExportRecord> {
    if (engine === 'postgres') {
      for await (const row of recordsQuery(db, engine, filter).stream(pageSize)) {
        yield toRecord(row);
      }
      return;
    }
    // SQLite has a single connection, and a statement being stepped through holds it: while a
    // slow client read a download, every other request waited. So SQLite reads page by page,
    // by (created_at, id) as the history does, holding the connection only for each page.
    let after: Cursor | undefined;
    for (;;) {
      let query = recordsQuery(db, engine, filter);
      if (after !== undefined) {
        const { createdAt, id } = after;
        // A row value, so that SQLite seeks in the history's index rather than scanning it.
        query = query.where((eb) =>
          eb(eb.refTuple('assessments.created_at', 'assessments.id'), '<', eb.tuple(createdAt, id)),
        );
      }
      const rows = await query.limit(pageSize).execute();
      for (const row of rows) yield toRecord(row);
      const last = rows.at(-1);
      if (rows.length < pageSize || last === undefined) return;
      after = { createdAt: last.created_at, id: last.id };
    }
  },

  async summary(
    db: Executor,
    engine: DatabaseEngine,
    filter: AssessmentFilter,
  ): Promise<ExportSummary> {
    const row = await filteredAssessments(db, engine, filter)
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn
          .countAll<number>()
          .filterWhere('assessments.assessment_complete', '=', true)
          .as('complete'),
        eb.fn.countAll<number>().filterWhere('assessments.signed_off', '=', true).as('signed_off'),
        eb.fn.avg<number | null>('assessments.total_score').as('average_total_score'),
      ])
      .executeTakeFirstOrThrow();
    return {
      count: Number(row.count),
      complete: Number(row.complete),
      signedOff: Number(row.signed_off),
      averageTotalScore: row.average_total_score === null ? null : Number(row.average_total_score),
    };
  },

  /** The doctor reviews of one assessment, by condition. */
  reviews(db: Executor, assessmentId: string): Promise<ConditionReview[]> {
    return db
      .selectFrom('doctor_reviews')
      .select(['condition', 'agreed', 'comments', 'reviewed_by', 'locked'])
      .where('assessment_id', '=', assessmentId)
      .orderBy('condition')
      .execute();
  },
};
