import { CONDITIONS, type Condition, type RiskStatus } from '../../engine/index.ts';
import {
  ageOn,
  type Patient,
  type PatientAssessment,
  type PatientReference,
} from '../../shared/api/patients.ts';
import type { PatientRecordRow, TimelineRow } from '../db/repositories/patient-records.ts';

/**
 * Every field of a patient record the API shows, listed once. `today` is the clinic's calendar
 * date (YYYY-MM-DD), which the age is counted to.
 */
export function presentPatient(
  row: PatientRecordRow,
  lastHeight: number | null,
  today: string,
): Patient {
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    birthDate: row.birth_date,
    age: row.birth_date === null ? null : ageOn(row.birth_date, today),
    gender: row.gender,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    lastHeight,
  };
}

export function presentPatientReference(row: PatientRecordRow): PatientReference {
  return { id: row.id, number: row.number, name: row.name };
}

/** An assessment in a patient's timeline; its conditions in the spec's order. */
export function presentTimelineEntry(row: TimelineRow): PatientAssessment {
  const order = (condition: string) => CONDITIONS.indexOf(condition as Condition);
  return {
    id: row.id,
    code: row.assessment_code,
    createdAt: row.created_at,
    totalScore: row.total_score,
    bmi: row.bmi,
    signedOff: row.signed_off,
    reviewLocked: row.review_locked,
    ruleSetVersion: row.rule_set_version,
    results: [...row.results]
      .sort((a, b) => order(a.condition) - order(b.condition))
      .map((result) => ({
        condition: result.condition as Condition,
        riskStatus: result.risk_status as RiskStatus,
        totalScore: result.total_score,
      })),
  };
}
