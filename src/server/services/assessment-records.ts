import {
  CONDITIONS,
  FAMILY_HISTORY_CONDITIONS,
  type AssessmentResult,
  type Condition,
  type PatientData,
} from '../../engine/index.ts';
import type {
  AssessmentChildren,
  AssessmentRow,
  PatientRow,
  StoredAssessment,
} from '../db/repositories/assessments.ts';
import type { PatientRecordRow, TimelineRow } from '../db/repositories/patient-records.ts';
import type { Insertable } from 'kysely';
import type { ResultsTable, RiskFactorsTable } from '../db/schema.ts';

/** The patient data a client sent, after validation: every part present, possibly empty. */
export interface PatientInput {
  demographics: NonNullable<PatientData['demographics']>;
  riskFactors: NonNullable<PatientData['riskFactors']>;
  symptoms: NonNullable<PatientData['symptoms']>;
  management: NonNullable<PatientData['management']>;
}

const familyHistoryColumns = {
  DM2: 'family_history_dm2',
  Asthma: 'family_history_asthma',
  Hypertension: 'family_history_hypertension',
  Hyperlipidaemia: 'family_history_hyperlipidaemia',
} as const satisfies Record<(typeof FAMILY_HISTORY_CONDITIONS)[number], keyof RiskFactorsTable>;

type AnswerMap = Record<string, { present: boolean; severity?: string }>;

/** The spec's tables (3.1) for one assessment: one row per answer, one per condition result. */
export function childRows(
  assessmentId: string,
  input: PatientInput,
  result: AssessmentResult,
): AssessmentChildren {
  const symptoms: AssessmentChildren['symptoms'] = [];
  for (const condition of CONDITIONS) {
    const answers = (input.symptoms[condition] ?? {}) as AnswerMap;
    for (const [symptomKey, answer] of Object.entries(answers)) {
      symptoms.push({
        assessment_id: assessmentId,
        condition,
        symptom_key: symptomKey,
        present: answer.present,
        severity: answer.severity ?? null,
      });
    }
  }
  const familyHistory = input.riskFactors.familyHistory ?? {};
  return {
    symptoms,
    riskFactors: {
      assessment_id: assessmentId,
      smoking: input.riskFactors.smoking ?? null,
      family_history_dm2: familyHistory.DM2 ?? null,
      family_history_asthma: familyHistory.Asthma ?? null,
      family_history_hypertension: familyHistory.Hypertension ?? null,
      family_history_hyperlipidaemia: familyHistory.Hyperlipidaemia ?? null,
      household_tb_exposure: input.riskFactors.householdTBExposure ?? null,
    },
    management: CONDITIONS.flatMap((condition) => {
      const answer = input.management[condition];
      return answer === undefined
        ? []
        : [
            {
              assessment_id: assessmentId,
              condition,
              diagnosed: answer.diagnosed,
              last_doctor_visit: answer.lastDoctorVisit ?? null,
              prescription_duration: answer.prescriptionDuration ?? null,
            },
          ];
    }),
    results: result.conditions.map((c) => ({
      assessment_id: assessmentId,
      condition: c.condition,
      total_score: c.totalScore,
      factor_count: c.factorCount,
      risk_status: c.riskStatus,
      symptom_score: c.components.symptomScore,
      risk_factor_score: c.components.riskFactorScore,
      management_score: c.components.managementScore,
      comorbidity_score: c.components.comorbidityScore,
      threshold: c.details.threshold,
      rule_set_version: result.ruleSetVersion,
    })),
  };
}

function withoutNulls<T extends Record<string, unknown>>(
  record: T,
): Partial<{ [K in keyof T]: NonNullable<T[K]> }> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null)) as Partial<{
    [K in keyof T]: NonNullable<T[K]>;
  }>;
}

/** Rebuilds the patient data from the stored rows: an unanswered question stays absent. */
export function storedPatientInput(
  stored: Pick<StoredAssessment, 'patient' | 'riskFactors' | 'symptoms' | 'management'>,
): PatientInput {
  const { patient, riskFactors } = stored;
  const symptoms: Record<string, AnswerMap> = {};
  for (const row of stored.symptoms) {
    symptoms[row.condition] ??= {};
    (symptoms[row.condition] as AnswerMap)[row.symptom_key] =
      row.severity === null
        ? { present: row.present }
        : { present: row.present, severity: row.severity };
  }
  const familyHistory =
    riskFactors === undefined
      ? {}
      : withoutNulls(
          Object.fromEntries(
            FAMILY_HISTORY_CONDITIONS.map((c) => [c, riskFactors[familyHistoryColumns[c]]]),
          ) as Record<(typeof FAMILY_HISTORY_CONDITIONS)[number], boolean | null>,
        );
  const management: Partial<
    Record<
      Condition,
      { diagnosed: boolean; lastDoctorVisit?: string; prescriptionDuration?: string }
    >
  > = {};
  for (const row of stored.management) {
    management[row.condition as Condition] = {
      diagnosed: row.diagnosed,
      ...withoutNulls({
        lastDoctorVisit: row.last_doctor_visit,
        prescriptionDuration: row.prescription_duration,
      }),
    };
  }
  return {
    demographics: withoutNulls({
      age: patient.age,
      gender: patient.gender,
      height: patient.height,
      weight: patient.weight,
    }),
    riskFactors:
      riskFactors === undefined
        ? {}
        : {
            ...withoutNulls({
              smoking: riskFactors.smoking,
              householdTBExposure: riskFactors.household_tb_exposure,
            }),
            ...(Object.keys(familyHistory).length === 0 ? {} : { familyHistory }),
          },
    symptoms,
    // The rows were written from validated input, so their values are the catalogue's options.
    management: management as PatientInput['management'],
  };
}

/**
 * Lower-cased text the history search looks into: id, code, then `|` and the date in the clinic's
 * zone, so that a number can be looked for in the date alone.
 */
export function searchText(id: string, code: string | null, localDate: string): string {
  return `${id} ${code ?? ''} |${localDate}`.toLowerCase();
}

/**
 * A new assessment's place in the worklists (0 a condition at High, 1 at Moderate, else 2): what
 * the database keeps from its results rows (migration 20261125T0300-worklists), given with the
 * row so that the results' triggers find it right and the save rewrites neither the assessment
 * row nor its patient's follow-up row again for each result at High or Moderate.
 */
export function riskRankOf(
  results: readonly Pick<Insertable<ResultsTable>, 'risk_status'>[],
): number {
  let rank = 2;
  for (const { risk_status } of results) {
    if (risk_status === 'TRUE') return 0;
    if (risk_status === 'MAYBE') rank = 1;
  }
  return rank;
}

/** The measured demographics of an assessment (the spec's `patients` row), but for its id. */
export function patientRow(
  input: PatientInput,
  result: AssessmentResult,
  at: string,
): Omit<PatientRow, 'id'> {
  const d = input.demographics;
  return {
    age: d.age ?? null,
    gender: d.gender ?? null,
    height: d.height ?? null,
    weight: d.weight ?? null,
    bmi: result.patientBMI,
    updated_at: at,
  };
}

/** What the maker of a new assessment decides; the rest of its rows follows from these. */
export interface NewAssessment {
  id: string;
  patientId: string;
  input: PatientInput;
  result: AssessmentResult;
  code: string;
  notes: string | null;
  /** When it is made (created and last updated), and that day in the clinic's time zone. */
  at: string;
  localDate: string;
  /** The id of the user who makes it. */
  createdBy: string;
  patientRecordId: string | null;
  /** The organisation unit where it is done (record-units.ts decides it for a save). */
  orgUnitId: string;
  /** The user who signed it off as it was made (the seed's); a save's is not signed off. */
  signedOffBy?: { id: string; displayName: string } | undefined;
  /** The id of the user who deleted it as it was made (the seed's). */
  deletedBy?: string | undefined;
  /**
   * Whether the row carries its risk rank (riskRankOf), as a save's does; the seed's bulk inserts
   * leave it to the results' triggers.
   */
  withRiskRank: boolean;
}

/** The rows of a new assessment, per table: every column but those its triggers keep. */
export interface NewAssessmentRows extends AssessmentChildren {
  patient: PatientRow;
  /** Not yet reviewed: review_version and reviewed_at keep their defaults (0 and null). */
  assessment: Omit<
    AssessmentRow,
    'risk_rank' | 'review_locked' | 'review_version' | 'reviewed_at'
  > & {
    risk_rank?: number;
  };
}

/**
 * The rows a new assessment is written as, by a save, the seed and the save benchmark alike.
 * Every row of a table names the same columns (null for no value), as the seed's bulk inserts
 * need.
 */
export function newAssessmentRows(made: NewAssessment): NewAssessmentRows {
  const { id, input, result, at, signedOffBy, deletedBy } = made;
  const children = childRows(id, input, result);
  return {
    patient: { id: made.patientId, ...patientRow(input, result, at) },
    assessment: {
      id,
      ...(made.withRiskRank ? { risk_rank: riskRankOf(children.results) } : {}),
      patient_id: made.patientId,
      patient_record_id: made.patientRecordId,
      assessment_code: made.code,
      assessment_complete: result.assessmentComplete,
      total_score: result.totalScore,
      notes: made.notes,
      created_at: at,
      updated_at: at,
      created_by: made.createdBy,
      signed_off: signedOffBy !== undefined,
      signed_off_at: signedOffBy === undefined ? null : at,
      signed_off_by: signedOffBy?.displayName ?? null,
      signed_off_by_user_id: signedOffBy?.id ?? null,
      // A signed-off assessment was saved, then signed off.
      version: signedOffBy === undefined ? 1 : 2,
      deleted_at: deletedBy === undefined ? null : at,
      deleted_by: deletedBy ?? null,
      search_text: searchText(id, made.code, made.localDate),
      patient_gender: input.demographics.gender ?? null,
      patient_age: input.demographics.age ?? null,
      created_local_date: made.localDate,
      org_unit_id: made.orgUnitId,
    },
    ...children,
  };
}

/**
 * A new assessment as its save wrote it, to answer the save without reading back what its own
 * transaction stored: the rows themselves, with what the database adds to them (no review yet,
 * the risk rank its results give) and what the caller read beside them.
 */
export function storedNewAssessment(
  rows: NewAssessmentRows,
  read: {
    createdByName: string | null;
    patientRecord: PatientRecordRow | undefined;
    previous: TimelineRow | undefined;
  },
): StoredAssessment {
  return {
    assessment: {
      ...rows.assessment,
      risk_rank: riskRankOf(rows.results),
      review_locked: false,
      review_version: 0,
      reviewed_at: null,
    },
    patient: rows.patient,
    symptoms: rows.symptoms,
    riskFactors: rows.riskFactors,
    management: rows.management,
    results: rows.results,
    ...read,
  };
}
