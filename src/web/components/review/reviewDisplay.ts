import {
  CONDITION_DISPLAY_NAMES,
  RISK_STATUS_LABELS,
  type Condition,
  type LastDoctorVisit,
  type PrescriptionDuration,
  type RuleSet,
} from '../../../engine/index.ts';
import {
  lastDoctorVisitLabels,
  notRecorded,
  prescriptionDurationLabels,
} from '../../../shared/display.ts';
import {
  DOCTOR_STATUSES,
  reviewLockedMessage,
  type ConditionReview,
  type DoctorStatus,
  type ReviewedCondition,
} from '../../../shared/api/reviews.ts';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../forms.ts';

/** The review page's messages (spec sections 2.7, 5 and 8), worded exactly as the spec has them. */
export const reviewTexts = {
  loading: 'Loading doctor review...',
  noResults: 'No assessment results found.',
  finalized: 'Doctor Review Finalized - This review has been locked and cannot be modified',
  lockConfirm:
    'Are you sure you want to lock this doctor review? Once locked, it cannot be modified.',
  saved: 'Doctor review saved successfully!',
  locked: 'Doctor review locked successfully!',
  saveFailed: 'Failed to save doctor review',
  saveException: 'An unexpected error occurred while saving',
  lockFailed: 'Failed to lock doctor review',
  lockException: 'An error occurred while locking the review',
  loadFailed: 'Failed to load assessment',
  loadFailedRetry: 'Failed to load assessment. Please try again.',
} as const;

/** The words of the doctor's own judgement per condition. */
export const judgementTexts = {
  notReviewed: 'Not reviewed',
  allReviewed: 'Every condition is reviewed',
  doctorStatus: 'Which status would you give?',
  noDoctorStatus: 'No status given',
  commentsFirst: 'Choose Agree or Disagree to comment.',
} as const;

/** The statuses a doctor may give, labelled as the app shows risk statuses. */
export const doctorStatusOptions: readonly { value: DoctorStatus; label: string }[] =
  DOCTOR_STATUSES.map((status) => ({ value: status, label: RISK_STATUS_LABELS[status] }));

/**
 * A change the doctor makes to a condition. Choosing Agree or Disagree decides it; agreeing drops
 * any status the doctor had given while disagreeing.
 */
export function changeReview(
  row: ReviewedCondition,
  change: Partial<Pick<ReviewedCondition, 'agreed' | 'comments' | 'doctorStatus'>>,
): ReviewedCondition {
  const next = { ...row, ...change };
  if (change.agreed !== undefined) next.decided = true;
  if (next.agreed) next.doctorStatus = null;
  return next;
}

/** What a save sends: only the conditions the doctor chose Agree or Disagree for. */
export function chosenReviews(rows: readonly ReviewedCondition[]): ConditionReview[] {
  return rows
    .filter((row) => row.decided)
    .map((row) => ({
      condition: row.condition,
      agreed: row.agreed,
      comments: row.comments,
      doctorStatus: row.agreed ? null : row.doctorStatus,
    }));
}

/** The conditions shown that the doctor has not chosen Agree or Disagree for, in their order. */
export function notReviewedConditions(
  conditions: readonly Condition[],
  rows: readonly ReviewedCondition[],
): Condition[] {
  return conditions.filter(
    (condition) => rows.find((row) => row.condition === condition)?.decided !== true,
  );
}

/** 'Not reviewed: TB, Asthma', or that every condition is reviewed. */
export function notReviewedLine(conditions: readonly Condition[]): string {
  return conditions.length === 0
    ? judgementTexts.allReviewed
    : `${judgementTexts.notReviewed}: ${conditions.map((c) => CONDITION_DISPLAY_NAMES[c]).join(', ')}`;
}

/** A risk factor weight as the guidelines show it: 3 is 300%, 1.2 is 120%. */
export function weightPercent(weight: number): string {
  // Rounding hides binary fractions such as 0.29 * 100 = 28.999999999999996.
  return `${Math.round(weight * 100)}%`;
}

export interface RiskFactorRow {
  name: string;
  weight: string;
  /** Whether the factor applied to this patient in the stored result. */
  applies: boolean;
}

/** Every risk factor the result's rule set weighs for the condition, marked when it applied. */
export function riskFactorRows(
  ruleSet: RuleSet,
  condition: Condition,
  applied: readonly { name: string }[],
): RiskFactorRow[] {
  return ruleSet.conditions[condition].riskFactors.map((rule) => ({
    name: rule.name,
    weight: weightPercent(rule.weight),
    applies: applied.some((factor) => factor.name === rule.name),
  }));
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type SymptomAnswers = Readonly<
  Record<string, { present: boolean; severity?: string | undefined } | undefined>
>;

/** The nurse's answer per symptom of the condition's catalogue, in catalogue order. */
export function symptomAnswerRows(
  ruleSet: RuleSet,
  condition: Condition,
  answers: SymptomAnswers | undefined,
): { name: string; answer: string }[] {
  return ruleSet.conditions[condition].symptoms.map((rule) => {
    const answer = answers?.[rule.key];
    if (answer === undefined) return { name: rule.name, answer: notRecorded };
    if (!answer.present) return { name: rule.name, answer: 'No' };
    if (answer.severity === undefined || rule.scale === 'none') {
      return { name: rule.name, answer: 'Yes' };
    }
    const rating =
      rule.scale === 'weightChange' ? `Weight ${capitalized(answer.severity)}` : answer.severity;
    return { name: rule.name, answer: `Yes (${rating})` };
  });
}

/** The management answers of one condition; visit and prescription are asked only when diagnosed. */
export function managementAnswerRows(
  answer:
    | {
        diagnosed: boolean;
        lastDoctorVisit?: LastDoctorVisit | undefined;
        prescriptionDuration?: PrescriptionDuration | undefined;
      }
    | undefined,
): { label: string; value: string }[] {
  if (answer === undefined) return [{ label: 'Diagnosed', value: notRecorded }];
  if (!answer.diagnosed) return [{ label: 'Diagnosed', value: 'No' }];
  return [
    { label: 'Diagnosed', value: 'Yes' },
    {
      label: 'Last doctor visit',
      value:
        answer.lastDoctorVisit === undefined
          ? notRecorded
          : lastDoctorVisitLabels[answer.lastDoctorVisit],
    },
    {
      label: 'Current prescription',
      value:
        answer.prescriptionDuration === undefined
          ? notRecorded
          : prescriptionDurationLabels[answer.prescriptionDuration],
    },
  ];
}

/** What the page says after a save or a lock. `reload` asks for the stored review again. */
export interface ReviewFeedback {
  success: boolean;
  title: string;
  detail?: string;
  reload?: boolean;
}

/**
 * The spec pairs each action with two failures: the service refused (the server answered with
 * an error) or the call itself failed (no answer, or something unexpected in the browser).
 */
function failure(error: unknown, refused: string, failed: string): ReviewFeedback {
  if (error instanceof ApiError && error.code === 'review_locked') {
    // Someone finalized the review meanwhile; showing the stored, locked review explains why.
    return { success: false, title: reviewLockedMessage, reload: true };
  }
  if (error instanceof ApiError && error.status > 0) {
    return { success: false, title: refused, detail: error.message };
  }
  return { success: false, title: failed, detail: errorMessage(error) };
}

export function saveFailure(error: unknown): ReviewFeedback {
  return failure(error, reviewTexts.saveFailed, reviewTexts.saveException);
}

export function lockFailure(error: unknown): ReviewFeedback {
  return failure(error, reviewTexts.lockFailed, reviewTexts.lockException);
}

/** The agreed count with its share of the reviewed, as a whole percentage: '2 (67%)'. */
export function agreedWithShare(agreed: number, share: number | null): string {
  return share === null ? String(agreed) : `${agreed} (${Math.round(share * 100)}%)`;
}
