import { sql, type Insertable, type Selectable } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type {
  AssessmentsTable,
  ManagementTable,
  PatientsTable,
  ResultsTable,
  RiskFactorsTable,
  SymptomsTable,
} from '../schema.ts';
import { withinScope, type Scope } from '../../auth/scope.ts';
import { readBooleans, type Executor, type WithBooleans } from './executor.ts';
import {
  patientRecordsRepository,
  searchWords,
  type PatientRecordRow,
  type TimelineRow,
} from './patient-records.ts';

// The rows as the repositories return them and the services write them: booleans as booleans
// on both engines (SQLite answers 0 or 1).
export type AssessmentRow = WithBooleans<Selectable<AssessmentsTable>>;
export type PatientRow = Selectable<PatientsTable>;
export type SymptomRow = WithBooleans<Selectable<SymptomsTable>>;
export type RiskFactorsRow = WithBooleans<Selectable<RiskFactorsTable>>;
export type ManagementRow = WithBooleans<Selectable<ManagementTable>>;
export type ResultRow = Selectable<ResultsTable>;

/** The boolean columns of an assessment, which readBooleans reads in place. */
export const assessmentBooleanColumns = [
  'assessment_complete',
  'signed_off',
  'review_locked',
] as const;

/** The boolean columns of an assessment's risk factors. */
export const riskFactorBooleanColumns = [
  'smoking',
  'family_history_dm2',
  'family_history_asthma',
  'family_history_hypertension',
  'family_history_hyperlipidaemia',
  'household_tb_exposure',
] as const;

/**
 * The rows of one assessment that hang off it and are replaced together on every save, written
 * and read back in the same shape.
 */
export interface AssessmentChildren {
  symptoms: SymptomRow[];
  riskFactors: RiskFactorsRow;
  management: ManagementRow[];
  results: ResultRow[];
}

export interface StoredAssessment {
  assessment: AssessmentRow;
  patient: PatientRow;
  symptoms: SymptomRow[];
  riskFactors: RiskFactorsRow | undefined;
  management: ManagementRow[];
  results: ResultRow[];
  createdByName: string | null;
  /**
   * The patient record the assessment names, and that patient's live assessment before it; read
   * by `load` (a bulk read that leaves them out shows no patient record).
   */
  patientRecord?: PatientRecordRow | undefined;
  previous?: TimelineRow | undefined;
}

/** A row of the history: the assessment with its patient's demographics. */
export type SummaryRow = Pick<
  AssessmentRow,
  | 'id'
  | 'assessment_code'
  | 'version'
  | 'assessment_complete'
  | 'total_score'
  | 'signed_off'
  | 'signed_off_at'
  | 'signed_off_by'
  | 'created_at'
  | 'updated_at'
> &
  Pick<PatientRow, 'age' | 'gender' | 'bmi'> & {
    patient_id: string | null;
    patient_number: string | null;
  };

/** The server-side history filter, already translated from the user's words (see history-search). */
export interface AssessmentFilter {
  /**
   * Each must occur in the id, code or date text, or its words each start a word of the number
   * or name of the patient record the assessment names.
   */
  textTerms: string[];
  /** Short numbers: the age equals it, or the date contains it (never a digit of an id). */
  numberTerms: string[];
  gender?: 'Male' | 'Female' | undefined;
  signedOff?: boolean | undefined;
  complete?: boolean | undefined;
  fromIso?: string | undefined;
  toIso?: string | undefined;
}

export interface Cursor {
  createdAt: string;
  id: string;
}

/** `LIKE` with the user's own % and _ taken literally. */
function containsPattern(term: string): string {
  return `%${term.replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_')}%`;
}

/**
 * SQLite's trigram index answers `LIKE '%term%'` for a term of three characters or more without
 * reading every assessment. It takes no ESCAPE clause, so a term holding a LIKE wildcard is left
 * to the plain scan.
 */
function usesTrigramIndex(engine: DatabaseEngine, term: string): boolean {
  return engine === 'sqlite' && [...term].length >= 3 && !/[%_\\]/.test(term);
}

/**
 * Whether the database finds `LIKE '%term%'` on the search text in an index rather than by
 * reading every assessment: SQLite's trigram table as above, PostgreSQL's trigram index for a
 * term of three characters or more.
 */
function searchTextIndexed(engine: DatabaseEngine, term: string): boolean {
  return engine === 'postgres' ? [...term].length >= 3 : usesTrigramIndex(engine, term);
}

/**
 * The ids of the patient records, live or deleted, each of whose `words` starts a word of the
 * record (its number's and name's): a range of the words' index per word, as the patient search
 * reads it (`word >= w and word < w || U+10FFFF`).
 */
function recordIdsWithWordsStarting(db: Executor, words: readonly string[]) {
  const starting = (word: string) =>
    db
      .selectFrom('patient_record_words')
      .select('patient_record_words.patient_record_id')
      .where('patient_record_words.word', '>=', word)
      .where('patient_record_words.word', '<', `${word}\u{10FFFF}`);
  const [first = '', ...rest] = words;
  let query = starting(first);
  for (const word of rest) {
    query = query.where('patient_record_words.patient_record_id', 'in', starting(word));
  }
  return query;
}

export function isUnfiltered(filter: AssessmentFilter): boolean {
  return (
    filter.textTerms.length === 0 &&
    filter.numberTerms.length === 0 &&
    filter.gender === undefined &&
    filter.signedOff === undefined &&
    filter.complete === undefined &&
    filter.fromIso === undefined &&
    filter.toIso === undefined
  );
}

/**
 * The live assessments that match a filter, from the assessments table alone: a caller that
 * shows the patient's columns joins patients itself, so that counting matches never visits a
 * patient row it does not need.
 */
export function filteredAssessments(
  db: Executor,
  engine: DatabaseEngine,
  scope: Scope,
  filter: AssessmentFilter,
  order: 'counted' | 'newest first' = 'counted',
) {
  let query = db.selectFrom('assessments').where('assessments.deleted_at', 'is', null);
  if (
    order === 'newest first' &&
    engine === 'sqlite' &&
    scope.kind === 'units' &&
    scope.unitIds.length > 1
  ) {
    // A page of several units' history, newest first: SQLite walks the history's index and keeps
    // the scope's rows (the unary + keeps it from the units' index, from which it read every row
    // of a district and sorted them: 22 ms against 1.7 ms at 20,000 assessments). One unit's
    // range of that index is already in the history's order.
    query = query.where(sql<boolean>`+assessments.org_unit_id in (${sql.join(scope.unitIds)})`);
  } else {
    query = query.$call(withinScope('assessments.org_unit_id', scope));
  }
  for (const term of filter.textTerms) {
    const trigrams = db
      .selectFrom('assessment_search')
      .select('assessment_search.assessment_id')
      .where('assessment_search.search_text', 'like', `%${term}%`);
    const words = searchWords(term);
    if (words.length === 0) {
      // No letter or digit: nothing of a patient record to match, the search text alone.
      if (usesTrigramIndex(engine, term)) query = query.where('assessments.id', 'in', trigrams);
      query = query.where(
        sql<boolean>`assessments.search_text like ${containsPattern(term)} escape '\\'`,
      );
      continue;
    }
    const patientRecordIds = recordIdsWithWordsStarting(db, words);
    if (searchTextIndexed(engine, term)) {
      // A union of two index searches, the search text's and the patient records' words (the
      // assessments of a record found by the record index): written as an `or`, the planners
      // walked every live assessment instead.
      let byText = db
        .selectFrom('assessments as by_text')
        .select('by_text.id')
        .where('by_text.deleted_at', 'is', null)
        .where(sql<boolean>`by_text.search_text like ${containsPattern(term)} escape '\\'`);
      if (usesTrigramIndex(engine, term)) byText = byText.where('by_text.id', 'in', trigrams);
      // Read from the patient-record index alone: the query around it leaves out deleted
      // assessments, and checking here too read each row twice (50 % slower for a common name).
      const byPatient = db
        .selectFrom('assessments as by_patient')
        .select('by_patient.id')
        .where('by_patient.patient_record_id', 'in', patientRecordIds);
      query = query.where('assessments.id', 'in', byText.union(byPatient));
    } else {
      // The search text is read row by row anyway (a short term, or a % or _): the records'
      // ids are found once and looked up beside it.
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`assessments.search_text like ${containsPattern(term)} escape '\\'`,
          eb('assessments.patient_record_id', 'in', patientRecordIds),
        ]),
      );
    }
  }
  for (const term of filter.numberTerms) {
    // A union of two index searches: written as `age = n or date in (...)`, the planners
    // walked every live assessment instead.
    const byAge = db
      .selectFrom('assessments as by_age')
      .select('by_age.id')
      .where('by_age.deleted_at', 'is', null)
      .where('by_age.patient_age', '=', Number(term));
    const byDate = db
      .selectFrom('assessments as by_date')
      .select('by_date.id')
      .where('by_date.deleted_at', 'is', null)
      .where(
        'by_date.created_local_date',
        'in',
        db
          .selectFrom('assessment_dates')
          .select('assessment_dates.local_date')
          .where(sql<boolean>`local_date like ${containsPattern(term)} escape '\\'`),
      );
    query = query.where('assessments.id', 'in', byAge.union(byDate));
  }
  if (filter.gender !== undefined) {
    query = query.where('assessments.patient_gender', '=', filter.gender);
  }
  if (filter.signedOff !== undefined) {
    query =
      engine === 'sqlite' && scope.kind === 'units'
        ? // Within some units SQLite reads the units' rows (the unary + keeps it from the index of
          // every signed-off assessment: 443 ms for a district's count at 1,000,000).
          query.where(sql<boolean>`+assessments.signed_off = ${filter.signedOff ? 1 : 0}`)
        : query.where('assessments.signed_off', '=', filter.signedOff);
  }
  if (filter.complete !== undefined) {
    query = query.where('assessments.assessment_complete', '=', filter.complete);
  }
  if (filter.fromIso !== undefined)
    query = query.where('assessments.created_at', '>=', filter.fromIso);
  if (filter.toIso !== undefined) query = query.where('assessments.created_at', '<', filter.toIso);
  return query;
}

export const assessmentsRepository = {
  async insertPatient(db: Executor, row: Insertable<PatientsTable>): Promise<void> {
    await db.insertInto('patients').values(row).execute();
  },

  async updatePatient(
    db: Executor,
    id: string,
    row: Omit<Insertable<PatientsTable>, 'id'>,
  ): Promise<void> {
    await db.updateTable('patients').set(row).where('id', '=', id).execute();
  },

  async insertAssessment(db: Executor, row: Insertable<AssessmentsTable>): Promise<void> {
    await db.insertInto('assessments').values(row).execute();
  },

  /**
   * Changes an assessment only if it is still at the expected version; returns whether it was.
   * The version check and the write are one statement, so two saves from the same version can
   * never both succeed.
   */
  async updateAssessmentAtVersion(
    db: Executor,
    id: string,
    expectedVersion: number,
    changes: Partial<Omit<Insertable<AssessmentsTable>, 'id' | 'version'>>,
  ): Promise<boolean> {
    const result = await db
      .updateTable('assessments')
      .set({ ...changes, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async insertChildren(
    db: Executor,
    engine: DatabaseEngine,
    children: AssessmentChildren,
  ): Promise<void> {
    const symptoms =
      children.symptoms.length > 0 ? db.insertInto('symptoms').values(children.symptoms) : null;
    const riskFactors = db.insertInto('risk_factors').values(children.riskFactors);
    const management =
      children.management.length > 0
        ? db.insertInto('management').values(children.management)
        : null;
    const results = db.insertInto('results').values(children.results);
    if (engine === 'postgres') {
      // One statement, so one round trip to the database instead of four: a transaction's locks
      // are held while each statement travels, and the trip costs more than the writes
      // (issue 35). The rows' triggers run at the statement's end, as before at each one's.
      const written = [symptoms, riskFactors, management].flatMap((insert, index) =>
        insert === null ? [] : [sql`${sql.raw(`written_${index}`)} as (${insert})`],
      );
      await sql`with ${sql.join(written)} ${results}`.execute(db);
      return;
    }
    // SQLite runs in this process: a statement costs no trip.
    for (const insert of [symptoms, riskFactors, management, results]) await insert?.execute();
  },

  async deleteChildren(db: Executor, assessmentId: string): Promise<void> {
    for (const table of ['symptoms', 'risk_factors', 'management', 'results'] as const) {
      await db.deleteFrom(table).where('assessment_id', '=', assessmentId).execute();
    }
  },

  /** The assessment with the id, if it lies within the scope. */
  async findAssessment(db: Executor, scope: Scope, id: string): Promise<AssessmentRow | undefined> {
    const row = await db
      .selectFrom('assessments')
      .selectAll()
      .where('id', '=', id)
      .$call(withinScope('org_unit_id', scope))
      .executeTakeFirst();
    return row === undefined ? undefined : readBooleans(row, assessmentBooleanColumns);
  },

  findIdByCode(db: Executor, code: string): Promise<{ id: string } | undefined> {
    return db
      .selectFrom('assessments')
      .select('id')
      .where('assessment_code', '=', code)
      .executeTakeFirst();
  },

  /** An assessment with everything it shows, if it lies within the scope. */
  async load(db: Executor, scope: Scope, id: string): Promise<StoredAssessment | undefined> {
    const assessment = await this.findAssessment(db, scope, id);
    if (assessment === undefined) return undefined;
    const recordId = assessment.patient_record_id;
    const [patient, symptoms, riskFactors, management, results, creator, record, previous] =
      await Promise.all([
        db
          .selectFrom('patients')
          .selectAll()
          .where('id', '=', assessment.patient_id)
          .executeTakeFirstOrThrow(),
        db.selectFrom('symptoms').selectAll().where('assessment_id', '=', id).execute(),
        db
          .selectFrom('risk_factors')
          .selectAll()
          .where('assessment_id', '=', id)
          .executeTakeFirst(),
        db.selectFrom('management').selectAll().where('assessment_id', '=', id).execute(),
        db.selectFrom('results').selectAll().where('assessment_id', '=', id).execute(),
        assessment.created_by === null
          ? Promise.resolve(undefined)
          : db
              .selectFrom('users')
              .select('display_name')
              .where('id', '=', assessment.created_by)
              .executeTakeFirst(),
        recordId === null ? undefined : patientRecordsRepository.find(db, scope, recordId),
        recordId === null
          ? undefined
          : patientRecordsRepository.assessmentBefore(db, scope, recordId, {
              createdAt: assessment.created_at,
              id: assessment.id,
            }),
      ]);
    return {
      assessment,
      patient,
      symptoms: symptoms.map((row) => readBooleans(row, ['present'])),
      riskFactors:
        riskFactors === undefined ? undefined : readBooleans(riskFactors, riskFactorBooleanColumns),
      management: management.map((row) => readBooleans(row, ['diagnosed'])),
      results,
      createdByName: creator?.display_name ?? null,
      patientRecord: record,
      previous,
    };
  },

  async list(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    filter: AssessmentFilter,
    limit: number,
    after?: Cursor,
  ): Promise<SummaryRow[]> {
    let query = filteredAssessments(db, engine, scope, filter, 'newest first')
      .innerJoin('patients', 'patients.id', 'assessments.patient_id')
      .leftJoin('patient_records', 'patient_records.id', 'assessments.patient_record_id');
    if (after !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('assessments.created_at', '<', after.createdAt),
          eb.and([
            eb('assessments.created_at', '=', after.createdAt),
            eb('assessments.id', '<', after.id),
          ]),
        ]),
      );
    }
    const rows = await query
      .select([
        'assessments.id',
        'assessments.assessment_code',
        'assessments.version',
        'assessments.assessment_complete',
        'assessments.total_score',
        'assessments.signed_off',
        'assessments.signed_off_at',
        'assessments.signed_off_by',
        'assessments.created_at',
        'assessments.updated_at',
        'patients.age',
        'patients.gender',
        'patients.bmi',
        'patient_records.id as patient_id',
        'patient_records.number as patient_number',
      ])
      .orderBy('assessments.created_at', 'desc')
      .orderBy('assessments.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => readBooleans(row, ['assessment_complete', 'signed_off']));
  },

  /**
   * How many assessments match. The database keeps the numbers of live and of signed-off live
   * assessments as they change, which answer the unfiltered history and the sign-off words of a
   * scope that holds every unit.
   */
  async count(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    filter: AssessmentFilter,
  ): Promise<number> {
    if (scope.kind === 'everything' && isUnfiltered({ ...filter, signedOff: undefined })) {
      // The row plus the changes not yet folded into it (migration kept-count-deltas).
      const { rows } = await sql<{ live: number | string; live_signed_off: number | string }>`
        select sum(live) as live, sum(live_signed_off) as live_signed_off from (
          select live, live_signed_off from assessment_totals where id = 1
          union all
          select live, live_signed_off from assessment_total_deltas
        ) kept`.execute(db);
      const live = Number(rows[0]?.live ?? 0);
      const signedOff = Number(rows[0]?.live_signed_off ?? 0);
      if (filter.signedOff === undefined) return live;
      return filter.signedOff ? signedOff : live - signedOff;
    }
    const row = await filteredAssessments(db, engine, scope, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
};
