import { sql, type RawBuilder } from 'kysely';
import type { Scope } from '../../auth/scope.ts';
import type { DatabaseEngine } from '../database.ts';
import {
  riskFactorBooleanColumns,
  type AssessmentFilter,
  type ManagementRow,
  type PatientRow,
  type ResultRow,
  type RiskFactorsRow,
  type SymptomRow,
} from './assessments.ts';
import { bool, readBooleans, type Executor } from './executor.ts';
import { assessmentPage, inPages } from './exports.ts';
import type { ReviewRow } from './reviews.ts';

/** A decided row of a finalized doctor review: what the doctor chose for one condition. */
export type LockedReviewRow = Pick<ReviewRow, 'condition' | 'agreed' | 'doctor_status'>;

/** One live assessment as the impact analysis reads it: the answers that score, and its review. */
export interface ImpactAssessment {
  id: string;
  patient: PatientRow;
  riskFactors: RiskFactorsRow | undefined;
  /** Present symptoms only. */
  symptoms: SymptomRow[];
  /** Diagnosed conditions only. */
  management: ManagementRow[];
  /** The stored status and total score of each condition. */
  statuses: Array<[condition: string, status: ResultRow['risk_status'], totalScore: number]>;
  reviews: LockedReviewRow[];
}

/**
 * A column per table that holds each assessment's rows as one JSON array of arrays (no keys),
 * grouped by assessment: node:sqlite makes an object per row, and one row per assessment instead
 * of ten or six read a page's symptoms and results 30 to 40 % faster.
 */
function rowsAsJson(engine: DatabaseEngine, columns: readonly string[]): RawBuilder<string> {
  const list = sql.join(columns.map((column) => sql.ref(column)));
  return engine === 'postgres'
    ? sql`json_agg(json_build_array(${list}))::text`
    : sql`json_group_array(json_array(${list}))`;
}

/** The Unix milliseconds a version 7 UUID begins with (src/server/ids.ts); undefined for others. */
function idTimeMs(id: string): number | undefined {
  return id[14] === '7' ? Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16) : undefined;
}

/** How far an id's time may lie outside its page's creation times and the page still use a range. */
const idTimeSlackMs = 60_000;

/**
 * The lowest and highest id of a page, when every id is a version 7 UUID made at its
 * assessment's creation (give or take a minute): its child rows are then read as one range of
 * the tables' keys, 35 to 50 % faster than seeking 250 ids one by one. Any other assessment
 * whose id falls in the range was made in the same minutes (a deleted one, say); its rows are
 * read and passed over. Undefined for a page with older, random ids, whose range could span a
 * whole table: those are sought one by one.
 */
function idRange(
  rows: ReadonlyArray<{ id: string; created_at: string }>,
): [string, string] | undefined {
  const newest = Date.parse(rows[0]?.created_at ?? '') + idTimeSlackMs;
  const oldest = Date.parse(rows.at(-1)?.created_at ?? '') - idTimeSlackMs;
  let lowest: string | undefined;
  let highest: string | undefined;
  for (const { id } of rows) {
    const time = idTimeMs(id);
    if (time === undefined || !(time >= oldest && time <= newest)) return undefined;
    if (lowest === undefined || id < lowest) lowest = id;
    if (highest === undefined || id > highest) highest = id;
  }
  return lowest === undefined || highest === undefined ? undefined : [lowest, highest];
}

/** Each assessment's JSON column, parsed, by assessment id. */
function byAssessment<Row>(
  rows: ReadonlyArray<{ assessment_id: string; rows: string }>,
): Map<string, Row[]> {
  return new Map(rows.map((row) => [row.assessment_id, JSON.parse(row.rows) as Row[]]));
}

export const ruleSetImpactRepository = {
  /**
   * Live assessments matching the filter, newest first, a page at a time in the exports' keyset
   * order, each page's child rows read by one statement per table for the page's ids. Nothing is
   * kept between pages. Only the rows that can move a score are read: the engine reads a symptom
   * answered absent as one not answered, and a condition's management only when it is diagnosed
   * (more than half of the symptom rows are absent ones, and reading rows is most of an
   * analysis's time); the patient data rebuilt from them scores as the whole record does.
   */
  async *pages(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    filter: AssessmentFilter,
  ): AsyncGenerator<ImpactAssessment[]> {
    const assessmentPages = inPages((after) =>
      assessmentPage(db, engine, scope, filter, after)
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
      const range = idRange(rows);
      const ofPage =
        range === undefined
          ? sql<boolean>`assessment_id in (${sql.join(ids)})`
          : sql<boolean>`assessment_id between ${range[0]} and ${range[1]}`;
      const symptoms = byAssessment<[string, string, string | null]>(
        await db
          .selectFrom('symptoms')
          .select([
            'assessment_id',
            rowsAsJson(engine, ['condition', 'symptom_key', 'severity']).as('rows'),
          ])
          .where(ofPage)
          .where('present', '=', true)
          .groupBy('assessment_id')
          .execute(),
      );
      const management = byAssessment<[string, string | null, string | null]>(
        await db
          .selectFrom('management')
          .select([
            'assessment_id',
            rowsAsJson(engine, ['condition', 'last_doctor_visit', 'prescription_duration']).as(
              'rows',
            ),
          ])
          .where(ofPage)
          .where('diagnosed', '=', true)
          .groupBy('assessment_id')
          .execute(),
      );
      const statuses = byAssessment<[string, ResultRow['risk_status'], number]>(
        await db
          .selectFrom('results')
          .select([
            'assessment_id',
            rowsAsJson(engine, ['condition', 'risk_status', 'total_score']).as('rows'),
          ])
          .where(ofPage)
          .groupBy('assessment_id')
          .execute(),
      );
      const riskFactors = new Map<string, RiskFactorsRow>(
        (await db.selectFrom('risk_factors').selectAll().where(ofPage).execute()).map((row) => [
          row.assessment_id,
          readBooleans(row, riskFactorBooleanColumns),
        ]),
      );
      const reviews = new Map<string, LockedReviewRow[]>();
      for (const { assessment_id, condition, agreed, doctor_status } of await db
        .selectFrom('doctor_reviews')
        .select(['assessment_id', 'condition', 'agreed', 'doctor_status'])
        .where(ofPage)
        .where('locked', '=', true)
        .where('decided', '=', true)
        .execute()) {
        const review: LockedReviewRow = { condition, agreed: bool(agreed), doctor_status };
        const ofAssessment = reviews.get(assessment_id);
        if (ofAssessment === undefined) reviews.set(assessment_id, [review]);
        else ofAssessment.push(review);
      }
      yield rows.map((row) => ({
        id: row.id,
        patient: {
          id: row.patient_id,
          age: row.age,
          gender: row.gender,
          height: row.height,
          weight: row.weight,
          bmi: row.bmi,
          updated_at: row.patient_updated_at,
        },
        riskFactors: riskFactors.get(row.id),
        symptoms: (symptoms.get(row.id) ?? []).map(([condition, symptom_key, severity]) => ({
          assessment_id: row.id,
          condition,
          symptom_key,
          present: true,
          severity,
        })),
        management: (management.get(row.id) ?? []).map(
          ([condition, last_doctor_visit, prescription_duration]) => ({
            assessment_id: row.id,
            condition,
            diagnosed: true,
            last_doctor_visit,
            prescription_duration,
          }),
        ),
        statuses: statuses.get(row.id) ?? [],
        reviews: reviews.get(row.id) ?? [],
      }));
    }
  },
};
