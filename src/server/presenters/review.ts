import { CONDITIONS, RISK_STATUSES } from '../../engine/index.ts';
import { completeReviews, type AgreementSummary, type Review } from '../../shared/api/reviews.ts';
import type { AgreementCountRow, ReviewRow } from '../db/repositories/reviews.ts';
import { bool } from '../db/repositories/executor.ts';

/** A review as the API shows it; an assessment nobody has reviewed yet shows the defaults. */
export function presentReview(assessmentId: string, rows: readonly ReviewRow[]): Review {
  // Every save writes all rows at once, so any row names the reviewer and the time.
  const first = rows[0];
  return {
    assessmentId,
    locked: rows.some((row) => bool(row.locked)),
    reviewedBy: first?.reviewed_by ?? null,
    reviewedAt: first?.created_at ?? null,
    reviews: completeReviews(
      rows.map((row) => ({
        condition: row.condition,
        decided: bool(row.decided),
        agreed: bool(row.agreed),
        comments: row.comments,
        doctorStatus: row.doctor_status,
      })),
    ),
  };
}

/** Every condition and every risk status, with zeros where nothing was reviewed. */
export function presentAgreement(rows: readonly AgreementCountRow[]): AgreementSummary {
  return {
    conditions: CONDITIONS.map((condition) => {
      const byStatus = RISK_STATUSES.map((riskStatus) => {
        const row = rows.find((r) => r.condition === condition && r.risk_status === riskStatus);
        return { riskStatus, reviewed: row?.reviewed ?? 0, agreed: row?.agreed ?? 0 };
      });
      const reviewed = byStatus.reduce((sum, status) => sum + status.reviewed, 0);
      const agreed = byStatus.reduce((sum, status) => sum + status.agreed, 0);
      return {
        condition,
        reviewed,
        agreed,
        share: reviewed === 0 ? null : agreed / reviewed,
        byStatus,
      };
    }),
  };
}
