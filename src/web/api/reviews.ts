import {
  agreementSummarySchema,
  reviewSchema,
  type AgreementSummary,
  type ConditionReview,
  type Review,
} from '../../shared/api/reviews.ts';
import { apiRequest, apiUrl } from './client.ts';
import { downloadAttachment } from './reports.ts';

function reviewPath(assessmentId: string): string {
  return `/api/assessments/${encodeURIComponent(assessmentId)}/review`;
}

export function getReview(assessmentId: string, signal?: AbortSignal): Promise<Review> {
  return apiRequest(reviewPath(assessmentId), { schema: reviewSchema, signal });
}

/** Replaces the whole review; a locked review is refused with 409 review_locked. */
export function saveReview(assessmentId: string, reviews: ConditionReview[]): Promise<Review> {
  return apiRequest(reviewPath(assessmentId), {
    method: 'PUT',
    body: { reviews },
    schema: reviewSchema,
  });
}

/** Saves the given rows and locks the review in one step. */
export function lockReview(assessmentId: string, reviews: ConditionReview[]): Promise<Review> {
  return apiRequest(`${reviewPath(assessmentId)}/lock`, {
    method: 'POST',
    body: { reviews },
    schema: reviewSchema,
  });
}

/** The Doctor Agreement's dates, whole days; an end left out is open. */
/** The days of the Doctor Agreement, and the unit it narrows to (with those below it). */
export interface AgreementDates {
  from?: string | undefined;
  to?: string | undefined;
  unit?: string | undefined;
}

export function getAgreementSummary(
  dates: AgreementDates = {},
  signal?: AbortSignal,
): Promise<AgreementSummary> {
  return apiRequest('/api/reviews/agreement', {
    query: { from: dates.from, to: dates.to, unit: dates.unit },
    schema: agreementSummarySchema,
    signal,
  });
}

/** Downloads the Doctor Agreement over the dates as CSV (audited by the server as an export). */
export function downloadAgreementCsv(dates: AgreementDates = {}): Promise<void> {
  return downloadAttachment(
    apiUrl('/api/reviews/agreement.csv', { from: dates.from, to: dates.to, unit: dates.unit }),
    'doctor-agreement.csv',
  );
}
