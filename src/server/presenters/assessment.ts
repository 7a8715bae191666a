import type { AssessmentResult } from '../../engine/index.ts';
import type { Assessment, AssessmentSummary } from '../../shared/api/assessments.ts';
import type { StoredAssessment, SummaryRow } from '../db/repositories/assessments.ts';
import type { PatientInput } from '../services/assessment-records.ts';
import { presentPatientReference, presentTimelineEntry } from './patient.ts';

/** Every field of an assessment the API shows, listed once. */
export function presentAssessment(
  stored: StoredAssessment,
  input: PatientInput,
  results: AssessmentResult,
): Assessment {
  const { assessment } = stored;
  return {
    id: assessment.id,
    code: assessment.assessment_code,
    version: assessment.version,
    demographics: { ...input.demographics, bmi: stored.patient.bmi },
    riskFactors: input.riskFactors,
    symptoms: input.symptoms,
    management: input.management,
    notes: assessment.notes,
    results,
    assessmentComplete: assessment.assessment_complete,
    totalScore: assessment.total_score,
    signedOff: assessment.signed_off,
    signedOffAt: assessment.signed_off_at,
    signedOffBy: assessment.signed_off_by,
    createdAt: assessment.created_at,
    updatedAt: assessment.updated_at,
    createdBy: stored.createdByName,
    deletedAt: assessment.deleted_at,
    patient:
      stored.patientRecord === undefined ? null : presentPatientReference(stored.patientRecord),
    previousAssessment:
      stored.previous === undefined ? null : presentTimelineEntry(stored.previous),
  };
}

export function presentSummary(row: SummaryRow): AssessmentSummary {
  return {
    id: row.id,
    code: row.assessment_code,
    version: row.version,
    age: row.age,
    gender: row.gender,
    bmi: row.bmi,
    assessmentComplete: row.assessment_complete,
    totalScore: row.total_score,
    signedOff: row.signed_off,
    signedOffAt: row.signed_off_at,
    signedOffBy: row.signed_off_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    patientId: row.patient_id,
    patientNumber: row.patient_number,
  };
}
