import {
  patientAssessmentListSchema,
  patientListSchema,
  patientSchema,
  type Patient,
  type PatientAssessment,
  type PatientBody,
  type PatientList,
} from '../../shared/api/patients.ts';
import { apiRequest } from './client.ts';

function patientPath(id: string): string {
  return `/api/patients/${encodeURIComponent(id)}`;
}

export interface PatientSearchOptions {
  /** How many records a page holds (the server's default is 20, at most 100). */
  limit?: number;
  /** The page after the one that answered this cursor. */
  cursor?: string | undefined;
  signal?: AbortSignal;
}

/**
 * Live patient records whose number, or a word of whose name, starts with `q` (without case);
 * every record when `q` is empty.
 */
export function searchPatients(
  q: string,
  { limit, cursor, signal }: PatientSearchOptions = {},
): Promise<PatientList> {
  return apiRequest('/api/patients', {
    query: { q: q.trim(), limit, cursor },
    schema: patientListSchema,
    signal,
  });
}

export function getPatient(id: string, signal?: AbortSignal): Promise<Patient> {
  return apiRequest(patientPath(id), { schema: patientSchema, signal });
}

/** Creates a patient record; a number another live record has is refused (409, field `number`). */
export function createPatient(body: PatientBody): Promise<Patient> {
  return apiRequest('/api/patients', { method: 'POST', body, schema: patientSchema });
}

/** The patient's live assessments, newest first. */
export async function patientAssessments(
  id: string,
  signal?: AbortSignal,
): Promise<PatientAssessment[]> {
  const { items } = await apiRequest(`${patientPath(id)}/assessments`, {
    schema: patientAssessmentListSchema,
    signal,
  });
  return items;
}
