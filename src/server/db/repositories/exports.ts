import type { Kysely, Selectable } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { Database, DoctorReviewsTable } from '../schema.ts';
import {
  filteredAssessments,
  type AssessmentFilter,
  type AssessmentRow,
  type Cursor,
  type PatientRow,
  type ResultRow,
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

/** What the CSV shows of one assessment: its own columns and its patient's, side by side. */
export interface CsvAssessment
  extends
    Pick<
      AssessmentRow,
      | 'id'
      | 'assessment_code'
      | 'created_at'
      | 'updated_at'
      | 'assessment_complete'
      | 'signed_off'
      | 'signed_off_at'
      | 'signed_off_by'
      | 'total_score'
      | 'notes'
    >,
    Pick<PatientRow, 'age' | 'gender' | 'height' | 'weight' | 'bmi'> {}

/** The stored figures of one condition's result that the CSV shows. */
export type CsvResult = Pick<
  ResultRow,
  | 'assessment_id'
  | 'condition'
  | 'risk_status'
  | 'total_score'
  | 'factor_count'
  | 'symptom_score'
  | 'risk_factor_score'
  | 'comorbidity_score'
  | 'management_score'
>;

/** One CSV row's worth: the assessment, its results and whether a doctor's review is locked. */
export interface CsvRecord {
  assessment: CsvAssessment;
  results: CsvResult[];
  reviewLocked: boolean;
}

/** Assessments read per round trip: what an export holds in memory at most. */
const pageSize = 1000;

/** Up to a page of live assessments after the cursor, newest first, with their patients. */
function assessmentPage(
  db: Executor,
  engine: DatabaseEngine,
  filter: AssessmentFilter,
  after: Cursor | undefined,
) {
  const { toIso } = filter;
  let query = filteredAssessments(db, engine, { ...filter, toIso: undefined }).innerJoin(
    'patients',
    'patients.id',
    'assessments.patient_id',
  );
  if (after !== undefined) {
    const { createdAt, id } = after;
    // A row value, so that the database seeks in the history's index rather than scanning it.
    query = query.where((eb) =>
      eb(eb.refTuple('assessments.created_at', 'assessments.id'), '<', eb.tuple(createdAt, id)),
    );
  }
  // The end date comes after the cursor: SQLite seeks from the first upper bound on created_at
  // it is given, and from the end date each page would step over all the pages before it.
  if (toIso !== undefined) query = query.where('assessments.created_at', '<', toIso);
  return query
    .orderBy('assessments.created_at', 'desc')
    .orderBy('assessments.id', 'desc')
    .limit(pageSize);
}

/** The rows of each assessment, in the order of the ids, with none where it has none. */
function byAssessment<Row extends { assessment_id: string }>(
  ids: readonly string[],
  rows: readonly Row[],
): Row[][] {
  const grouped = Map.groupBy(rows, (row) => row.assessment_id);
  return ids.map((id) => grouped.get(id) ?? []);
}

/**
 * Reads an export page by page, by (created_at, id) as the history does, holding nothing between
 * pages: on SQLite's single connection a slow client reading a download would otherwise make
 * every other request wait, and on PostgreSQL a connection would wait on the client. A page's
 * assessments and their child rows come from separate statements, so each page is read in one
 * transaction: a save in between cannot pair one version's assessment with another's rows.
 */
async function* inPages<Row extends { id: string; created_at: string }, Item>(
  db: Kysely<Database>,
  readAssessments: (trx: Executor, after: Cursor | undefined) => Promise<Row[]>,
  withChildren: (trx: Executor, assessments: Row[], ids: string[]) => Promise<Item[]>,
): AsyncGenerator<Item[]> {
  let after: Cursor | undefined;
  for (;;) {
    const page = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const assessments = await readAssessments(trx, after);
        if (assessments.length === 0) return { records: [], last: undefined };
        const records = await withChildren(
          trx,
          assessments,
          assessments.map((assessment) => assessment.id),
        );
        return { records, last: assessments.at(-1) };
      });
    if (page.records.length > 0) yield page.records;
    if (page.last === undefined || page.records.length < pageSize) return;
    after = { createdAt: page.last.created_at, id: page.last.id };
  }
}

export const exportsRepository = {
  /** Live assessments matching the filter, newest first, whole, a page at a time. */
  recordPages(
    db: Kysely<Database>,
    engine: DatabaseEngine,
    filter: AssessmentFilter,
  ): AsyncGenerator<ExportRecord[]> {
    return inPages(
      db,
      (trx, after) =>
        assessmentPage(trx, engine, filter, after)
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
          .execute(),
      async (trx, rows, ids) => {
        const symptoms = byAssessment(
          ids,
          await trx.selectFrom('symptoms').selectAll().where('assessment_id', 'in', ids).execute(),
        );
        const management = byAssessment(
          ids,
          await trx
            .selectFrom('management')
            .selectAll()
            .where('assessment_id', 'in', ids)
            .execute(),
        );
        const results = byAssessment(
          ids,
          await trx.selectFrom('results').selectAll().where('assessment_id', 'in', ids).execute(),
        );
        const reviews = byAssessment(
          ids,
          await trx
            .selectFrom('doctor_reviews')
            .select(['assessment_id', 'condition', 'agreed', 'comments', 'reviewed_by', 'locked'])
            .where('assessment_id', 'in', ids)
            .execute(),
        );
        return rows.map((row, index) => {
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
            symptoms: symptoms[index] ?? [],
            management: management[index] ?? [],
            results: results[index] ?? [],
            reviews: reviews[index] ?? [],
            createdByName: created_by_name,
          };
        });
      },
    );
  },

  /**
   * What the CSV needs of the live assessments matching the filter, newest first, a page at a
   * time: no symptoms, management, risk factors or creator, which it does not show.
   */
  csvPages(
    db: Kysely<Database>,
    engine: DatabaseEngine,
    filter: AssessmentFilter,
  ): AsyncGenerator<CsvRecord[]> {
    return inPages(
      db,
      (trx, after) =>
        assessmentPage(trx, engine, filter, after)
          .select([
            'assessments.id',
            'assessments.assessment_code',
            'assessments.created_at',
            'assessments.updated_at',
            'assessments.assessment_complete',
            'assessments.signed_off',
            'assessments.signed_off_at',
            'assessments.signed_off_by',
            'assessments.total_score',
            'assessments.notes',
            'patients.age',
            'patients.gender',
            'patients.height',
            'patients.weight',
            'patients.bmi',
          ])
          .execute(),
      async (trx, assessments, ids) => {
        const results = byAssessment(
          ids,
          await trx
            .selectFrom('results')
            .select([
              'assessment_id',
              'condition',
              'risk_status',
              'total_score',
              'factor_count',
              'symptom_score',
              'risk_factor_score',
              'comorbidity_score',
              'management_score',
            ])
            .where('assessment_id', 'in', ids)
            .execute(),
        );
        const locked = new Set(
          (
            await trx
              .selectFrom('doctor_reviews')
              .select('assessment_id')
              .where('assessment_id', 'in', ids)
              .where('locked', '=', true)
              .execute()
          ).map((review) => review.assessment_id),
        );
        return assessments.map((assessment, index) => ({
          assessment,
          results: results[index] ?? [],
          reviewLocked: locked.has(assessment.id),
        }));
      },
    );
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
