import { z } from 'zod';
import { CONDITIONS, RISK_STATUSES, type Condition } from '../../engine/index.ts';

export const reviewCommentsMaxLength = 10_000;

/** Spec section 8: the answer to any change of a finalized review. */
export const reviewLockedMessage = 'Review is already locked and cannot be modified';

const conditionSchema = z.enum(CONDITIONS);

/** A doctor's verdict on the rules' result for one condition. */
export const conditionReviewSchema = z.object({
  condition: conditionSchema,
  agreed: z.boolean(),
  comments: z.string().max(reviewCommentsMaxLength),
});
export type ConditionReview = z.infer<typeof conditionReviewSchema>;

/** Each condition at most once; a condition left out is saved as not agreed, without comments. */
const conditionReviewsSchema = z
  .array(conditionReviewSchema)
  .max(CONDITIONS.length)
  .superRefine((reviews, context) => {
    const seen = new Set<Condition>();
    reviews.forEach((review, index) => {
      if (seen.has(review.condition)) {
        context.addIssue({
          code: 'custom',
          message: `${review.condition} is reviewed more than once`,
          path: [index, 'condition'],
        });
      }
      seen.add(review.condition);
    });
  });

export const reviewBodySchema = z.object({ reviews: conditionReviewsSchema });
export type ReviewBody = z.input<typeof reviewBodySchema>;

/**
 * No body or `{}` locks what is stored; with reviews, saves them and locks in one step. A request
 * without a body reaches validation as null.
 */
export const reviewLockBodySchema = z
  .object({ reviews: conditionReviewsSchema.optional() })
  .nullish();
export type ReviewLockBody = z.input<typeof reviewLockBodySchema>;

export const reviewSchema = z.object({
  assessmentId: z.string(),
  /** Finalized: the review can no longer change. */
  locked: z.boolean(),
  /** Display name of the doctor who last saved or finalized it; null before the first save. */
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  /** All six conditions, in the order of CONDITIONS. */
  reviews: z.array(conditionReviewSchema),
});
export type Review = z.infer<typeof reviewSchema>;

/** Every condition in product order; one without a review gets the default: not agreed, no comments. */
export function completeReviews(
  reviews: readonly { condition: string; agreed: boolean; comments: string }[],
): ConditionReview[] {
  return CONDITIONS.map((condition) => {
    const review = reviews.find((r) => r.condition === condition);
    return { condition, agreed: review?.agreed ?? false, comments: review?.comments ?? '' };
  });
}

export const agreementSummarySchema = z.object({
  /** All six conditions, in the order of CONDITIONS; counts are of finalized reviews of live assessments. */
  conditions: z.array(
    z.object({
      condition: conditionSchema,
      reviewed: z.number().int(),
      agreed: z.number().int(),
      /** agreed / reviewed; null when nothing was reviewed. */
      share: z.number().min(0).max(1).nullable(),
      /** Every risk status, in the order of RISK_STATUSES, by the rules' current result. */
      byStatus: z.array(
        z.object({
          riskStatus: z.enum(RISK_STATUSES),
          reviewed: z.number().int(),
          agreed: z.number().int(),
        }),
      ),
    }),
  ),
});
export type AgreementSummary = z.infer<typeof agreementSummarySchema>;
