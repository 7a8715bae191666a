import {
  assessmentSchema,
  type Assessment,
  type AssessmentBody,
} from '../../shared/api/assessments.ts';
import { ApiError, apiRequest, ifMatch } from './client.ts';

function assessmentPath(id: string): string {
  return `/api/assessments/${encodeURIComponent(id)}`;
}

export function getAssessment(id: string, signal?: AbortSignal): Promise<Assessment> {
  return apiRequest(assessmentPath(id), { schema: assessmentSchema, signal });
}

/**
 * Creates an assessment under the code made when it was started. Repeating the call is safe: the
 * server answers the existing record for a code it already has with the same content.
 */
export function createAssessment(body: AssessmentBody): Promise<Assessment> {
  return apiRequest('/api/assessments', { method: 'POST', body, schema: assessmentSchema });
}

export function updateAssessment(
  id: string,
  version: number,
  body: AssessmentBody,
): Promise<Assessment> {
  return apiRequest(assessmentPath(id), {
    method: 'PUT',
    body,
    headers: ifMatch(version),
    schema: assessmentSchema,
  });
}

export function signOffAssessment(id: string, version: number): Promise<Assessment> {
  return apiRequest(`${assessmentPath(id)}/sign-off`, {
    method: 'POST',
    headers: ifMatch(version),
    schema: assessmentSchema,
  });
}

/**
 * The first save of a new assessment. When an earlier attempt was stored but its answer never
 * arrived, and the content has changed since, the server refuses the code (409) naming the stored
 * record (`existingId`, which the server always sends with it); that record is then updated
 * instead, but only when this user created it, it is live and nobody has changed it since
 * (version 1), so that no one else's work is overwritten.
 */
export async function saveNewAssessment(
  body: AssessmentBody & { code: string },
  /** The signed-in user's display name, which the server records as the creator. */
  creatorName: string,
): Promise<Assessment> {
  try {
    return await createAssessment(body);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409 && error.field === 'code')) throw error;
    if (error.existingId === undefined) throw error;
    const existing = await storedFirstSave(error.existingId, error);
    if (
      existing.createdBy !== creatorName ||
      existing.version !== 1 ||
      existing.deletedAt !== null
    ) {
      throw error;
    }
    return updateAssessment(existing.id, existing.version, withPatientMade(body, existing));
  }
}

/** The record a refused first save names; one this user may not see (deleted) keeps the 409. */
async function storedFirstSave(id: string, refusal: ApiError): Promise<Assessment> {
  try {
    return await getAssessment(id);
  } catch (error) {
    throw error instanceof ApiError && error.status === 404 ? refusal : error;
  }
}

/**
 * The body for updating a stored first save: a new patient that save already made is named by its
 * id, since making it again would be refused (its number is taken, by itself).
 */
function withPatientMade(body: AssessmentBody, stored: Assessment): AssessmentBody {
  const made = stored.patient;
  if (body.newPatient === undefined || made === null) return body;
  if (made.number.toLowerCase() !== body.newPatient.number.trim().toLowerCase()) return body;
  const named: AssessmentBody = { ...body, patientId: made.id };
  delete named.newPatient;
  return named;
}
