import type { z } from 'zod';
import { CONDITIONS } from '../../engine/index.ts';
import type {
  agreementQuerySchema,
  AgreementSummary,
  ConditionReview,
  Review,
  ReviewedCondition,
  reviewBodySchema,
  reviewLockBodySchema,
} from '../../shared/api/reviews.ts';
import {
  completeReviews,
  latestCommentsPerCondition,
  MATRIX_STATUSES,
  reviewLockedMessage,
} from '../../shared/api/reviews.ts';
import { can } from '../auth/policy.ts';
import type { Scope } from '../auth/scope.ts';
import type { AppContext } from '../context.ts';
import { KeptCountChanges, keptCountsRepository } from '../db/repositories/kept-counts.ts';
import { reviewsRepository } from '../db/repositories/reviews.ts';
import { csvRow } from '../csv.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { presentAgreement, presentReview } from '../presenters/review.ts';
import type { Requester } from '../auth/requester.ts';
import { recordAudit } from './audit.ts';

type ReviewBody = z.output<typeof reviewBodySchema>;
type ReviewLockBody = z.output<typeof reviewLockBodySchema>;

function notFound(): AppError {
  return new AppError(404, 'not_found', 'Failed to load assessment');
}

export async function getReview(
  context: AppContext,
  requester: Requester,
  assessmentId: string,
): Promise<Review> {
  const db = context.database.db;
  const assessment = await reviewsRepository.findAssessment(db, requester.scope, assessmentId);
  // As with the assessment itself, only those who may restore a deleted one may still read it.
  if (
    assessment === undefined ||
    (assessment.deleted_at !== null && !can(requester.user.role, 'assessment.viewDeleted'))
  ) {
    throw notFound();
  }
  return presentReview(assessmentId, await reviewsRepository.list(db, assessmentId));
}

/**
 * Replaces the whole review in one transaction: the locked check, the new rows and the audit row
 * commit together or not at all. The conditions in `reviews` are those the doctor decided; the
 * others are stored as not decided and not agreed. Without `reviews` the stored content is written
 * again, decided or not as it was (a lock with no body); the signed-in user becomes the reviewer
 * either way.
 */
async function writeReview(
  context: AppContext,
  requester: Requester,
  assessmentId: string,
  change: { reviews: ConditionReview[] | undefined; lock: boolean },
): Promise<Review> {
  const now = context.now();
  return context.database.transaction(async (trx) => {
    const assessment = await reviewsRepository.findAssessmentForChange(
      trx,
      requester.scope,
      assessmentId,
      context.database.engine,
    );
    if (assessment === undefined || assessment.deleted_at !== null) throw notFound();
    if (await reviewsRepository.isLocked(trx, assessmentId)) {
      throw new AppError(409, 'review_locked', reviewLockedMessage);
    }
    const reviews: readonly ReviewedCondition[] =
      change.reviews === undefined
        ? presentReview(assessmentId, await reviewsRepository.list(trx, assessmentId)).reviews
        : completeReviews(change.reviews);
    await reviewsRepository.replace(
      trx,
      assessmentId,
      reviews.map((review) => ({
        id: timeOrderedId(now.getTime()),
        assessment_id: assessmentId,
        condition: review.condition,
        agreed: review.agreed,
        comments: review.comments,
        decided: review.decided,
        doctor_status: review.doctorStatus,
        created_at: now.toISOString(),
        reviewed_by: requester.user.displayName,
        reviewed_by_user_id: requester.user.id,
        locked: change.lock,
      })),
    );
    await reviewsRepository.countReviewWrite(trx, assessmentId, now.toISOString());
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: change.lock ? 'review_lock' : 'review_save',
      // Review rows are replaced on every save, so the assessment is the lasting target.
      target: { type: 'assessment', id: assessmentId },
      address: requester.address,
    });
    if (change.lock) {
      // The assessment is live and its row locked (above): its decided rows now count.
      const { agreement } = await keptCountsRepository.contributions(trx, assessmentId);
      const counts = new KeptCountChanges();
      counts.add({ population: [], agreement }, 1);
      await keptCountsRepository.apply(trx, counts);
    }
    return presentReview(assessmentId, await reviewsRepository.list(trx, assessmentId));
  });
}

export function saveReview(
  context: AppContext,
  requester: Requester,
  assessmentId: string,
  body: ReviewBody,
): Promise<Review> {
  return writeReview(context, requester, assessmentId, { reviews: body.reviews, lock: false });
}

/** Finalizes the review, first saving the given reviews when the body carries any. */
export function lockReview(
  context: AppContext,
  requester: Requester,
  assessmentId: string,
  body: ReviewLockBody,
): Promise<Review> {
  return writeReview(context, requester, assessmentId, { reviews: body?.reviews, lock: true });
}

type AgreementQuery = z.output<typeof agreementQuerySchema>;

/**
 * How the rules measure against the doctors in the units within the scope, per condition, from
 * the kept counts (a date range sums a few hundred rows a unit) and the latest disagreement
 * comments.
 */
export async function getAgreementSummary(
  context: AppContext,
  scope: Scope,
  query: AgreementQuery,
): Promise<AgreementSummary> {
  const { db, engine } = context.database;
  const range = { from: query.from, to: query.to };
  const [counts, ...comments] = await Promise.all([
    keptCountsRepository.agreementCounts(db, range, scope),
    ...CONDITIONS.map((condition) =>
      reviewsRepository.latestDisagreements(
        db,
        engine,
        condition,
        range,
        scope,
        latestCommentsPerCondition,
      ),
    ),
  ]);
  return presentAgreement(
    counts,
    new Map(CONDITIONS.map((condition, index) => [condition, comments[index] ?? []])),
  );
}

const agreementCsvHeader = [
  'condition',
  'reviewed',
  'agreed',
  'agreed_share',
  'kappa',
  'kappa_reviews',
  ...MATRIX_STATUSES.flatMap((rules) =>
    MATRIX_STATUSES.map((doctor) => `rules_${rules}_doctor_${doctor}`),
  ),
];

/**
 * The Doctor Agreement as CSV, one row per condition: the figures of the summary and its matrix
 * cell by cell (rules' status, then doctor's). The download is an export, audited by its file
 * name, never the dates; comments stay on the screen.
 */
export async function agreementCsv(
  context: AppContext,
  requester: Requester,
  query: AgreementQuery,
): Promise<string> {
  const summary = await getAgreementSummary(context, requester.scope, query);
  await recordAudit(context.database.db, {
    at: context.now(),
    actor: requester.user,
    action: 'export',
    target: { type: 'export', id: 'agreement.csv' },
    address: requester.address,
  });
  return [
    csvRow(agreementCsvHeader),
    ...summary.conditions.map((row) =>
      csvRow([
        row.condition,
        row.reviewed,
        row.agreed,
        // Numbers, not text: a negative kappa written as text would be taken for a formula.
        row.share === null ? null : Number(row.share.toFixed(4)),
        row.kappa === null ? null : Number(row.kappa.toFixed(4)),
        row.matrix.flat().reduce((sum, cell) => sum + cell, 0),
        ...row.matrix.flat(),
      ]),
    ),
  ].join('');
}
