import { z } from 'zod';
import { CONDITIONS, RISK_STATUSES, type Condition } from '../../engine/index.ts';
import { assessmentListQuerySchema } from './assessment-list.ts';
import { unitQuerySchema } from './org-units.ts';

export const reviewCommentsMaxLength = 10_000;

/** Spec section 8: the answer to any change of a finalized review. */
export const reviewLockedMessage = 'Review is already locked and cannot be modified';

const conditionSchema = z.enum(CONDITIONS);

/** The statuses a doctor may give a condition instead of the rules' one: every status but UNKNOWN. */
export const DOCTOR_STATUSES = ['FALSE', 'MAYBE', 'TRUE', 'DIAGNOSED'] as const;
export type DoctorStatus = (typeof DOCTOR_STATUSES)[number];
const doctorStatusSchema = z.enum(DOCTOR_STATUSES);

/** Why a doctor status sent with an agreement is refused (400, naming the field). */
export const doctorStatusWithAgreementMessage =
  'A doctor status is given only when disagreeing with the result';

/**
 * A doctor's verdict on the rules' result for one condition, as a save sends it: the doctor chose
 * Agree (agreed true) or Disagree (false), and when disagreeing may say which status they would
 * give (none, or null, when not given).
 */
export const conditionReviewSchema = z.object({
  condition: conditionSchema,
  agreed: z.boolean(),
  comments: z.string().max(reviewCommentsMaxLength),
  doctorStatus: doctorStatusSchema.nullish(),
});
export type ConditionReview = z.infer<typeof conditionReviewSchema>;

/**
 * Each condition at most once, and a doctor status only with a disagreement. The conditions in
 * the list are those the doctor chose Agree or Disagree for (decided); a condition left out was
 * not reviewed, and is saved as not agreed, without comments or doctor status, and not decided.
 */
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
      if (review.agreed && review.doctorStatus != null) {
        context.addIssue({
          code: 'custom',
          message: doctorStatusWithAgreementMessage,
          path: [index, 'doctorStatus'],
        });
      }
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

/** One condition of a stored review. */
export const reviewedConditionSchema = z.object({
  condition: conditionSchema,
  /** The doctor chose Agree or Disagree; false for a condition not reviewed. */
  decided: z.boolean(),
  /** False for a condition not reviewed, as the spec's default. */
  agreed: z.boolean(),
  comments: z.string(),
  /** The status the doctor would give, when disagreeing and given; null otherwise. */
  doctorStatus: doctorStatusSchema.nullable(),
});
export type ReviewedCondition = z.infer<typeof reviewedConditionSchema>;

export const reviewSchema = z.object({
  assessmentId: z.string(),
  /** Finalized: the review can no longer change. */
  locked: z.boolean(),
  /** Display name of the doctor who last saved or finalized it; null before the first save. */
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  /** All six conditions, in the order of CONDITIONS. */
  reviews: z.array(reviewedConditionSchema),
});
export type Review = z.infer<typeof reviewSchema>;

/**
 * Every condition in product order. A condition in the list was decided (chosen by the doctor)
 * unless it says otherwise; one left out gets the default: not decided, not agreed, no comments,
 * no doctor status.
 */
export function completeReviews(
  reviews: readonly {
    condition: string;
    agreed: boolean;
    comments: string;
    decided?: boolean;
    doctorStatus?: DoctorStatus | null | undefined;
  }[],
): ReviewedCondition[] {
  return CONDITIONS.map((condition) => {
    const review = reviews.find((r) => r.condition === condition);
    return {
      condition,
      decided: review === undefined ? false : (review.decided ?? true),
      agreed: review?.agreed ?? false,
      comments: review?.comments ?? '',
      doctorStatus: review?.doctorStatus ?? null,
    };
  });
}

/** The Doctor Agreement's dates: whole days in the clinic's zone, as the population panel's. */
export const agreementQuerySchema = assessmentListQuerySchema
  .pick({ from: true, to: true })
  .extend({ unit: unitQuerySchema });
export type AgreementQuery = z.input<typeof agreementQuerySchema>;

/** The rows (the rules' status) and columns (the doctor's) of the agreement matrix, in order. */
export const MATRIX_STATUSES = DOCTOR_STATUSES;

/** Disagreement comments shown per condition, newest first. */
export const latestCommentsPerCondition = 5;

const reviewCount = z.number().int().min(0);

export const agreementSummarySchema = z.object({
  /**
   * All six conditions, in the order of CONDITIONS; counts are of the decided conditions of
   * finalized reviews of live assessments (a condition the doctor left untouched is not counted),
   * of the assessments made within the query's dates when it has any.
   */
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
      /**
       * Cohen's kappa between the rules' and the doctors' statuses over the reviews that give a
       * doctor status: an agreed review gives the rules' status, a disagreeing one the status the
       * doctor named (one that names none is left out), and a rules' status of UNKNOWN has no
       * doctor counterpart and is left out. Null below 10 such reviews ('not enough reviews'), or
       * when every one of them is in one and the same status on both sides.
       */
      kappa: z.number().min(-1).max(1).nullable(),
      /**
       * Those reviews counted by the rules' status (rows) and the doctor's (columns), both in the
       * order of MATRIX_STATUSES.
       */
      matrix: z
        .array(z.array(reviewCount).length(MATRIX_STATUSES.length))
        .length(MATRIX_STATUSES.length),
      /** The latest comments of disagreeing reviews, newest first; the comment and when alone. */
      latestComments: z
        .array(
          z.object({
            comments: z.string(),
            /** When the review was finalized. */
            reviewedAt: z.string(),
            ruleStatus: z.enum(RISK_STATUSES),
            doctorStatus: doctorStatusSchema.nullable(),
          }),
        )
        .max(latestCommentsPerCondition),
    }),
  ),
});
export type AgreementSummary = z.infer<typeof agreementSummarySchema>;
