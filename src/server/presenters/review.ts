import { CONDITIONS, RISK_STATUSES } from '../../engine/index.ts';
import {
  completeReviews,
  MATRIX_STATUSES,
  type AgreementSummary,
  type DoctorStatus,
  type Review,
} from '../../shared/api/reviews.ts';
import { cohensKappa } from '../../shared/kappa.ts';
import type { AgreementCountSum } from '../db/repositories/kept-counts.ts';
import type { DisagreementRow, ReviewRow } from '../db/repositories/reviews.ts';

/** A review as the API shows it; an assessment nobody has reviewed yet shows the defaults. */
export function presentReview(assessmentId: string, rows: readonly ReviewRow[]): Review {
  // Every save writes all rows at once, so any row names the reviewer and the time.
  const first = rows[0];
  return {
    assessmentId,
    locked: rows.some((row) => row.locked),
    reviewedBy: first?.reviewed_by ?? null,
    reviewedAt: first?.created_at ?? null,
    reviews: completeReviews(
      rows.map((row) => ({
        condition: row.condition,
        decided: row.decided,
        agreed: row.agreed,
        comments: row.comments,
        doctorStatus: row.doctor_status,
      })),
    ),
  };
}

function isMatrixStatus(status: string): status is DoctorStatus {
  return (MATRIX_STATUSES as readonly string[]).includes(status);
}

/**
 * Every condition and every risk status, with zeros where nothing was reviewed, from the kept
 * agreement counts; the matrix and kappa as agreementSummarySchema describes them.
 */
export function presentAgreement(
  rows: readonly AgreementCountSum[],
  comments: ReadonlyMap<string, readonly DisagreementRow[]>,
): AgreementSummary {
  return {
    conditions: CONDITIONS.map((condition) => {
      const ofCondition = rows.filter((row) => row.condition === condition);
      const byStatus = RISK_STATUSES.map((riskStatus) => {
        let reviewed = 0;
        let agreed = 0;
        for (const row of ofCondition) {
          if (row.rule_status !== riskStatus) continue;
          reviewed += Number(row.n);
          if (Number(row.agreed) === 1) agreed += Number(row.n);
        }
        return { riskStatus, reviewed, agreed };
      });
      const matrix = MATRIX_STATUSES.map(() => MATRIX_STATUSES.map(() => 0));
      for (const row of ofCondition) {
        // An agreeing doctor gives the rules' status; a disagreeing one the status named, if any.
        const doctorStatus = Number(row.agreed) === 1 ? row.rule_status : row.doctor_status;
        if (!isMatrixStatus(row.rule_status) || !isMatrixStatus(doctorStatus)) continue;
        const cells = matrix[MATRIX_STATUSES.indexOf(row.rule_status)];
        const column = MATRIX_STATUSES.indexOf(doctorStatus);
        if (cells !== undefined) cells[column] = (cells[column] ?? 0) + Number(row.n);
      }
      const reviewed = byStatus.reduce((sum, status) => sum + status.reviewed, 0);
      const agreed = byStatus.reduce((sum, status) => sum + status.agreed, 0);
      return {
        condition,
        reviewed,
        agreed,
        share: reviewed === 0 ? null : agreed / reviewed,
        byStatus,
        kappa: cohensKappa(matrix),
        matrix,
        latestComments: (comments.get(condition) ?? []).map((row) => ({
          comments: row.comments,
          reviewedAt: row.created_at,
          ruleStatus: row.risk_status,
          doctorStatus: row.doctor_status,
        })),
      };
    }),
  };
}
