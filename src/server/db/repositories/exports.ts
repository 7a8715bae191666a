import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { withinScope, type Scope } from '../../auth/scope.ts';
import type { DatabaseEngine } from '../database.ts';
import {
  assessmentBooleanColumns,
  filteredAssessments,
  type AssessmentFilter,
  type AssessmentRow,
  type Cursor,
  type ManagementRow,
  type PatientRow,
  type ResultRow,
  type StoredAssessment,
  type SymptomRow,
} from './assessments.ts';
import { bool, readBooleans, type Executor } from './executor.ts';
import type { PatientRecordRow } from './patient-records.ts';
import type { ReviewRow } from './reviews.ts';

/** What an export shows of a doctor review: the comments per condition and the lock. */
export type ConditionReview = Pick<
  ReviewRow,
  'condition' | 'agreed' | 'comments' | 'reviewed_by' | 'locked'
>;

/**
 * What a bulk export reads of a doctor review: also whether the doctor chose Agree or Disagree
 * (decided), the status they would give, and when the review was saved.
 */
export type ExportReview = ConditionReview &
  Pick<ReviewRow, 'decided' | 'doctor_status' | 'created_at'>;

/** What a bulk export shows of the patient record an assessment names. */
export type ExportPatientRecord = Pick<
  PatientRecordRow,
  | 'id'
  | 'number'
  | 'name'
  | 'birth_date'
  | 'gender'
  | 'org_unit_id'
  | 'deleted_at'
  | 'version'
  | 'updated_at'
>;

/** One assessment with every row hanging off it, as a bulk export reads it. */
export interface ExportRecord extends StoredAssessment {
  reviews: ExportReview[];
  /** The patient record the assessment names, if any. */
  linkedPatient: ExportPatientRecord | undefined;
  /**
   * Whether a record before this one in the same export names the same patient record; read
   * only when asked for (`markRepeatedPatients`), false otherwise.
   */
  patientSeenBefore: boolean;
}

/** The figures a bulk report opens with, over the same assessments it then lists. */
export interface ExportSummary {
  count: number;
  complete: number;
  signedOff: number;
  /** null when there are no assessments. */
  averageTotalScore: number | null;
}

/** What the CSV shows of one assessment: its columns, its patient's, whether a review is locked. */
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
    Pick<PatientRow, 'age' | 'gender' | 'height' | 'weight' | 'bmi'> {
  review_locked: boolean;
}

/** The stored figures of a result that the CSV shows, in the order of its columns. */
export const csvResultColumns = [
  'risk_status',
  'total_score',
  'factor_count',
  'symptom_score',
  'risk_factor_score',
  'comorbidity_score',
  'management_score',
] as const satisfies ReadonlyArray<keyof ResultRow>;

/** One result as the CSV reads it: the condition, then the figures of csvResultColumns. */
export type CsvResult = readonly [condition: string, ...figures: Array<string | number>];

/** One CSV row's worth: the assessment and its results. */
export interface CsvRecord {
  assessment: CsvAssessment;
  results: CsvResult[];
}

/**
 * Assessments read per statement. A statement holds SQLite's one connection: a page of whole
 * records takes some 20 ms on a million assessments, which a history request may wait behind a
 * download. And a page is alive while it is written out: pages of 1,000 CSV rows were as fast but
 * raised the server's peak memory by 20 to 30 MB.
 */
const pageSize = 250;

/** SQLite returns an aggregated JSON column as text; pg parses json columns itself. */
function jsonRows<T>(column: T[]): T[] {
  const value: unknown = column;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T[];
}

/**
 * An assessment's rows of a child table as one JSON array of objects keyed by column, its
 * boolean columns JSON booleans on both engines: SQLite keeps booleans as 0 and 1, and its json()
 * marks text as JSON only where the object is built (Kysely's jsonArrayFrom builds it over a
 * subquery, which reads a true as the text "true"), so the objects are built here, in one
 * statement over the table.
 */
function childRowsJson<Row>(
  engine: DatabaseEngine,
  table: 'symptoms' | 'management' | 'results' | 'doctor_reviews',
  columns: ReadonlyArray<keyof Row & string>,
  booleanColumns: ReadonlyArray<keyof Row & string> = [],
): RawBuilder<Row[]> {
  const fields = columns.map((column) => {
    const value = sql.ref(`${table}.${column}`);
    const json =
      engine === 'sqlite' && booleanColumns.includes(column)
        ? sql`case when ${value} then json('true') else json('false') end`
        : value;
    return sql`${sql.lit(column)}, ${json}`;
  });
  const objects =
    engine === 'postgres'
      ? sql`coalesce(json_agg(json_build_object(${sql.join(fields)})), '[]')`
      : sql`json_group_array(json_object(${sql.join(fields)}))`;
  return sql`(select ${objects} from ${sql.table(table)} where ${sql.ref(`${table}.assessment_id`)} = assessments.id)`;
}

/**
 * Up to a page of live assessments after the cursor, newest first, with their patients. The
 * rows hanging off an assessment come in the same statement as JSON arrays, one per table: read
 * as rows of their own, a page's child rows took as long to read and several times the memory.
 */
export function assessmentPage(
  db: Executor,
  engine: DatabaseEngine,
  scope: Scope,
  filter: AssessmentFilter,
  after: Cursor | undefined,
) {
  const { toIso } = filter;
  let query = filteredAssessments(db, engine, scope, {
    ...filter,
    toIso: undefined,
  }).innerJoin('patients', 'patients.id', 'assessments.patient_id');
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

/**
 * A page's records, each made from its row only when it is wanted: made all at once, they
 * outlived young-generation collections and were promoted; with pages of 1,000, a CSV
 * download's heap peaked at 280 MB instead of 220 MB.
 */
function* lazily<Row, Item>(rows: readonly Row[], toItem: (row: Row) => Item): Generator<Item> {
  for (const row of rows) yield toItem(row);
}

/**
 * Reads an export page by page, by (created_at, id) as the history does, holding nothing between
 * pages: on SQLite's single connection a slow client reading a download would otherwise make
 * every other request wait, and on PostgreSQL a connection would wait on the client.
 */
export async function* inPages<Row extends { id: string; created_at: string }>(
  readPage: (after: Cursor | undefined) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  let after: Cursor | undefined;
  for (;;) {
    const rows = await readPage(after);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return;
    after = { createdAt: last.created_at, id: last.id };
  }
}

/**
 * An assessment's results for the CSV as one JSON array of arrays, without the keys that a JSON
 * object repeats in every element: the CSV read 13% more rows a CPU-second so.
 */
function csvResults(engine: DatabaseEngine): RawBuilder<CsvResult[]> {
  const columns = sql.join(
    ['condition', ...csvResultColumns].map((column) => sql.ref(`results.${column}`)),
  );
  const arrays =
    engine === 'postgres'
      ? sql`coalesce(json_agg(json_build_array(${columns})), '[]')`
      : sql`json_group_array(json_array(${columns}))`;
  return sql`(select ${arrays} from results where results.assessment_id = assessments.id)`;
}

/**
 * The patient records of a page's rows that the export has already come to on its earlier pages:
 * those with an assessment matching the filter from the export's first row (`from`) down to, not
 * including, the page's first row (`to`). Each record is one seek in the patient-record index
 * that stops at the first such assessment, so the export keeps no list of the patients it has
 * written; the upper bound leaves out assessments saved since the export began.
 */
async function patientRecordsBefore(
  db: Executor,
  engine: DatabaseEngine,
  scope: Scope,
  filter: AssessmentFilter,
  rows: ReadonlyArray<{ patient_record_id: string | null }>,
  range: { from: Cursor; to: Cursor },
): Promise<Set<string>> {
  const recordIds = [
    ...new Set(
      rows.flatMap((row) => (row.patient_record_id === null ? [] : [row.patient_record_id])),
    ),
  ];
  if (recordIds.length === 0) return new Set();
  const found = await db
    .selectFrom('patient_records')
    .select('patient_records.id')
    .where('patient_records.id', 'in', recordIds)
    .where((eb) =>
      eb.exists(
        filteredAssessments(db, engine, scope, filter)
          .select(sql.lit(1).as('one'))
          .where(sql<boolean>`assessments.patient_record_id = patient_records.id`)
          .where((eb) =>
            eb.and([
              eb(
                eb.refTuple('assessments.created_at', 'assessments.id'),
                '<=',
                eb.tuple(range.from.createdAt, range.from.id),
              ),
              eb(
                eb.refTuple('assessments.created_at', 'assessments.id'),
                '>',
                eb.tuple(range.to.createdAt, range.to.id),
              ),
            ]),
          ),
      ),
    )
    .execute();
  return new Set(found.map((row) => row.id));
}

/**
 * A page of whole live assessments after the cursor, newest first: each with its patient, risk
 * factors, creator, patient record and its child rows as JSON arrays. `narrow` adds conditions
 * to the page's query (a bulk export's units and last change).
 */
export function wholeRecordRows(
  db: Executor,
  engine: DatabaseEngine,
  scope: Scope,
  filter: AssessmentFilter,
  after: Cursor | undefined,
  narrow: (page: ReturnType<typeof assessmentPage>) => ReturnType<typeof assessmentPage> = (page) =>
    page,
) {
  return narrow(assessmentPage(db, engine, scope, filter, after))
    .leftJoin('risk_factors', 'risk_factors.assessment_id', 'assessments.id')
    .leftJoin('users', 'users.id', 'assessments.created_by')
    .leftJoin('patient_records', 'patient_records.id', 'assessments.patient_record_id')
    .selectAll('assessments')
    .select([
      'patients.age',
      'patients.gender',
      'patients.height',
      'patients.weight',
      'patients.bmi',
      'patients.updated_at as patient_updated_at',
      'users.display_name as created_by_name',
      'patient_records.number as patient_record_number',
      'patient_records.name as patient_record_name',
      'patient_records.birth_date as patient_record_birth_date',
      'patient_records.gender as patient_record_gender',
      'patient_records.org_unit_id as patient_record_org_unit_id',
      'patient_records.deleted_at as patient_record_deleted_at',
      'patient_records.version as patient_record_version',
      'patient_records.updated_at as patient_record_updated_at',
      'risk_factors.assessment_id as risk_factors_assessment_id',
      'risk_factors.smoking',
      'risk_factors.family_history_dm2',
      'risk_factors.family_history_asthma',
      'risk_factors.family_history_hypertension',
      'risk_factors.family_history_hyperlipidaemia',
      'risk_factors.household_tb_exposure',
    ])
    .select([
      childRowsJson<SymptomRow>(
        engine,
        'symptoms',
        ['assessment_id', 'condition', 'symptom_key', 'present', 'severity'],
        ['present'],
      ).as('symptoms'),
      childRowsJson<ManagementRow>(
        engine,
        'management',
        ['assessment_id', 'condition', 'diagnosed', 'last_doctor_visit', 'prescription_duration'],
        ['diagnosed'],
      ).as('management'),
      childRowsJson<ResultRow>(engine, 'results', [
        'assessment_id',
        'condition',
        'total_score',
        'factor_count',
        'risk_status',
        'symptom_score',
        'risk_factor_score',
        'management_score',
        'comorbidity_score',
        'threshold',
        'rule_set_version',
      ]).as('results'),
      childRowsJson<ExportReview>(
        engine,
        'doctor_reviews',
        [
          'condition',
          'decided',
          'agreed',
          'doctor_status',
          'comments',
          'reviewed_by',
          'created_at',
          'locked',
        ],
        ['decided', 'agreed', 'locked'],
      ).as('reviews'),
    ])
    .execute();
}

type WholeRecordRow = Awaited<ReturnType<typeof wholeRecordRows>>[number];

/** A whole record from its row; `patientSeenBefore` as the export that reads it decides. */
export function exportRecordOf(row: WholeRecordRow, patientSeenBefore: boolean): ExportRecord {
  const {
    age,
    gender,
    height,
    weight,
    bmi,
    patient_updated_at,
    created_by_name,
    patient_record_number,
    patient_record_name,
    patient_record_birth_date,
    patient_record_gender,
    patient_record_org_unit_id,
    patient_record_deleted_at,
    patient_record_version,
    patient_record_updated_at,
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
    assessment: readBooleans(assessment, assessmentBooleanColumns),
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
            smoking: bool(smoking),
            family_history_dm2: bool(family_history_dm2),
            family_history_asthma: bool(family_history_asthma),
            family_history_hypertension: bool(family_history_hypertension),
            family_history_hyperlipidaemia: bool(family_history_hyperlipidaemia),
            household_tb_exposure: bool(household_tb_exposure),
          },
    symptoms: jsonRows(symptoms),
    management: jsonRows(management),
    results: jsonRows(results),
    reviews: jsonRows(reviews),
    createdByName: created_by_name,
    linkedPatient:
      assessment.patient_record_id === null ||
      patient_record_number === null ||
      patient_record_org_unit_id === null ||
      patient_record_version === null ||
      patient_record_updated_at === null
        ? undefined
        : {
            id: assessment.patient_record_id,
            number: patient_record_number,
            name: patient_record_name,
            birth_date: patient_record_birth_date,
            gender: patient_record_gender,
            org_unit_id: patient_record_org_unit_id,
            deleted_at: patient_record_deleted_at,
            version: patient_record_version,
            updated_at: patient_record_updated_at,
          },
    patientSeenBefore,
  };
}

export const exportsRepository = {
  /**
   * Live assessments of the scope matching the filter, newest first, whole, a page at a time.
   * With `markRepeatedPatients`, each record says whether an earlier record of the export names
   * the same patient record.
   */
  async *recordPages(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    filter: AssessmentFilter,
    options: { markRepeatedPatients?: boolean } = {},
  ): AsyncGenerator<Iterable<ExportRecord>> {
    const pages = inPages((after) => wholeRecordRows(db, engine, scope, filter, after));
    let top: Cursor | undefined;
    for await (const rows of pages) {
      const first = rows[0];
      let seenBefore: boolean[] | undefined;
      if (options.markRepeatedPatients && first !== undefined) {
        const seen =
          top === undefined
            ? new Set<string>()
            : await patientRecordsBefore(db, engine, scope, filter, rows, {
                from: top,
                to: { createdAt: first.created_at, id: first.id },
              });
        // Marked in a pass of their own, so that the records can still be made one at a time.
        seenBefore = rows.map((row) => {
          const recordId = row.patient_record_id;
          if (recordId === null) return false;
          if (seen.has(recordId)) return true;
          seen.add(recordId);
          return false;
        });
      }
      top ??= first === undefined ? undefined : { createdAt: first.created_at, id: first.id };
      let index = 0;
      yield lazily(rows, (row) => exportRecordOf(row, seenBefore?.[index++] ?? false));
    }
  },

  /**
   * What the CSV needs of the live assessments of the scope matching the filter, newest first, a
   * page at a time: no symptoms, management, risk factors or creator, which it does not show.
   */
  async *csvPages(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    filter: AssessmentFilter,
  ): AsyncGenerator<Iterable<CsvRecord>> {
    const pages = inPages((after) =>
      assessmentPage(db, engine, scope, filter, after)
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
        .select((eb) => [
          // Not `exists`, which PostgreSQL answered by hashing every locked review for each page.
          eb.fn
            .coalesce(
              eb
                .selectFrom('doctor_reviews')
                .select(eb.lit(true).as('locked'))
                .whereRef('doctor_reviews.assessment_id', '=', 'assessments.id')
                .where('doctor_reviews.locked', '=', true)
                .limit(1),
              eb.lit(false),
            )
            .$castTo<SqlBool>()
            .as('review_locked'),
          csvResults(engine).as('results'),
        ])
        .execute(),
    );
    for await (const rows of pages) {
      yield lazily(rows, (row) => ({
        assessment: readBooleans(row, ['assessment_complete', 'signed_off', 'review_locked']),
        results: jsonRows(row.results),
      }));
    }
  },

  /** The figures of the live assessments of the scope matching the filter. */
  async summary(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    filter: AssessmentFilter,
  ): Promise<ExportSummary> {
    const row = await filteredAssessments(db, engine, scope, filter)
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

  /**
   * Whether the assessment, live or deleted, belongs to a unit of the scope: what one
   * assessment's report, FHIR Bundle or FHIR resources check first (a 404 outside it).
   */
  async assessmentWithinScope(db: Executor, scope: Scope, assessmentId: string): Promise<boolean> {
    const row = await db
      .selectFrom('assessments')
      .select('assessments.id')
      .where('assessments.id', '=', assessmentId)
      .$call(withinScope('assessments.org_unit_id', scope))
      .executeTakeFirst();
    return row !== undefined;
  },

  /** The doctor reviews of one assessment of the scope, by condition. */
  async reviews(db: Executor, scope: Scope, assessmentId: string): Promise<ConditionReview[]> {
    const rows = await db
      .selectFrom('doctor_reviews')
      .innerJoin('assessments', 'assessments.id', 'doctor_reviews.assessment_id')
      .select([
        'doctor_reviews.condition',
        'doctor_reviews.agreed',
        'doctor_reviews.comments',
        'doctor_reviews.reviewed_by',
        'doctor_reviews.locked',
      ])
      .where('doctor_reviews.assessment_id', '=', assessmentId)
      .$call(withinScope('assessments.org_unit_id', scope))
      .orderBy('doctor_reviews.condition')
      .execute();
    return rows.map((row) => readBooleans(row, ['agreed', 'locked']));
  },
};
