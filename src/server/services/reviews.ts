import type { z } from 'zod';
import type {
  AgreementSummary,
  ConditionReview,
  Review,
  ReviewedCondition,
  reviewBodySchema,
  reviewLockBodySchema,
} from '../../shared/api/reviews.ts';
import { completeReviews, reviewLockedMessage } from '../../shared/api/reviews.ts';
import type { SessionUser } from '../../shared/api/session.ts';
import { can } from '../auth/policy.ts';
import type { AppContext } from '../context.ts';
import { KeptCountChanges, keptCountsRepository } from '../db/repositories/kept-counts.ts';
import { reviewsRepository } from '../db/repositories/reviews.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { presentAgreement, presentReview } from '../presenters/review.ts';
import type { Requester } from './assessments.ts';
import { recordAudit } from './audit.ts';

type ReviewBody = z.output<typeof reviewBodySchema>;
type ReviewLockBody = z.output<typeof reviewLockBodySchema>;

function notFound(): AppError {
  return new AppError(404, 'not_found', 'Failed to load assessment');
}

export async function getReview(
  context: AppContext,
  user: SessionUser,
  assessmentId: string,
): Promise<Review> {
  const db = context.database.db;
  const assessment = await reviewsRepository.findAssessment(db, assessmentId);
  // As with the assessment itself, only those who may restore a deleted one may still read it.
  if (
    assessment === undefined ||
    (assessment.deleted_at !== null && !can(user.role, 'assessment.viewDeleted'))
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
    if (change.lock) {
      // The assessment is live and its row locked (above): its decided rows now count.
      const { agreement } = await keptCountsRepository.contributions(trx, assessmentId);
      const counts = new KeptCountChanges();
      counts.add({ population: [], agreement }, 1);
      await keptCountsRepository.apply(trx, counts);
    }
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: change.lock ? 'review_lock' : 'review_save',
      // Review rows are replaced on every save, so the assessment is the lasting target.
      target: { type: 'assessment', id: assessmentId },
      address: requester.address,
    });
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

export async function getAgreementSummary(context: AppContext): Promise<AgreementSummary> {
  return presentAgreement(await reviewsRepository.agreementCounts(context.database.db));
}
