import { z } from 'zod';
import { CONDITIONS, RISK_STATUSES, type Condition, type RiskStatus } from '../engine/index.ts';
import { errorEnvelopeSchema } from './api/errors.ts';
import { calendarDateSchema } from './api/calendar-date.ts';
import { csvRow } from './csv.ts';

/**
 * The impact of a rule set version (issue 19): every live assessment in a date range re-scored
 * under the version, against the statuses stored with it.
 */

export const impactDateOrderMessage = 'Must not be before the start date';

/**
 * `POST /api/rule-sets/:version/impact`: whole days (YYYY-MM-DD) of the assessments' local
 * creation dates, both inclusive, as the history's date range; either may be left out.
 */
export const impactRequestSchema = z
  .object({
    from: calendarDateSchema.optional(),
    to: calendarDateSchema.optional(),
  })
  .strict()
  .refine((range) => range.from === undefined || range.to === undefined || range.from <= range.to, {
    message: impactDateOrderMessage,
    path: ['to'],
  });
export type ImpactRequest = z.input<typeof impactRequestSchema>;

export const impactVersionParamsSchema = z.object({ version: z.string().min(1).max(100) });

const count = z.number().int().min(0);

/** How many assessments have each status, every status of RISK_STATUSES present. */
export const impactStatusCountsSchema = z.object(
  Object.fromEntries(RISK_STATUSES.map((status) => [status, count])) as Record<
    RiskStatus,
    typeof count
  >,
);
export type ImpactStatusCounts = z.infer<typeof impactStatusCountsSchema>;

/**
 * Agreement of one side (the stored statuses or the version's) with the locked doctor reviews
 * that side can judge. kappa pairs the side's status with the doctor's own where it is known
 * (Agree: the stored status; Disagree with a status: that status), over kappaReviews pairs.
 */
export const impactAgreementSchema = z.object({
  reviews: count,
  agreed: count,
  /** agreed / reviews; null when reviews is 0. */
  share: z.number().min(0).max(1).nullable(),
  /** Cohen's kappa (src/shared/kappa.ts); null below its minimum of pairs. */
  kappa: z.number().min(-1).max(1).nullable(),
  kappaReviews: count,
});
export type ImpactAgreement = z.infer<typeof impactAgreementSchema>;

export const conditionImpactSchema = z.object({
  /** Assessments whose status changes: the matrix's off-diagonal sum. */
  changed: count,
  /** Rows: the stored status; columns: the status under the version. */
  matrix: z.object(
    Object.fromEntries(RISK_STATUSES.map((status) => [status, impactStatusCountsSchema])) as Record<
      RiskStatus,
      typeof impactStatusCountsSchema
    >,
  ),
  /**
   * Assessments whose total score for the condition changes, whether or not its status does (a
   * weight moves scores; statuses follow the count of factors).
   */
  scoreChanged: count,
  /** The mean change of the total score over those assessments (new minus stored); null if none. */
  scoreChangeMean: z.number().nullable(),
  agreement: z.object({ stored: impactAgreementSchema, new: impactAgreementSchema }),
});
export type ConditionImpact = z.infer<typeof conditionImpactSchema>;

export const impactResultSchema = z.object({
  version: z.string(),
  /** The rule set's name. */
  title: z.string(),
  from: calendarDateSchema.nullable(),
  to: calendarDateSchema.nullable(),
  /** Live assessments re-scored. */
  assessments: count,
  conditions: z.object(
    Object.fromEntries(CONDITIONS.map((condition) => [condition, conditionImpactSchema])) as Record<
      Condition,
      typeof conditionImpactSchema
    >,
  ),
});
export type ImpactResult = z.infer<typeof impactResultSchema>;

/** One line of the NDJSON answer (`Accept: application/x-ndjson`): progress lines, then one end. */
export const impactStreamLineSchema = z.union([
  z.object({ progress: z.object({ done: count, total: count }) }),
  z.object({ result: impactResultSchema }),
  errorEnvelopeSchema,
]);
export type ImpactStreamLine = z.infer<typeof impactStreamLineSchema>;

export const impactNdjsonType = 'application/x-ndjson';

const agreementColumns = ['reviews', 'agreed', 'share', 'kappa', 'kappa_reviews'] as const;

export const impactCsvHeader = [
  'version',
  'from',
  'to',
  'condition',
  'stored_status',
  ...RISK_STATUSES.map((status) => `new_${status}`),
  'changed',
  'score_changed',
  'score_change_mean',
  ...agreementColumns.map((column) => `stored_${column}`),
  ...agreementColumns.map((column) => `new_${column}`),
];

/** Four decimals, as a number: a negative kappa written as text would be taken for a formula. */
function rounded(value: number | null): number | null {
  return value === null ? null : Number(value.toFixed(4));
}

function agreementCells(agreement: ImpactAgreement): Array<number | null> {
  return [
    agreement.reviews,
    agreement.agreed,
    rounded(agreement.share),
    rounded(agreement.kappa),
    agreement.kappaReviews,
  ];
}

/**
 * An impact result as CSV: one row per condition and stored status with the counts per new
 * status, the assessments of that row whose status changes, and the condition's score changes
 * and agreement figures (repeated on each of its rows, so that any row can be read alone).
 */
export function impactCsv(result: ImpactResult): string {
  const rows = CONDITIONS.flatMap((condition) => {
    const impact = result.conditions[condition];
    return RISK_STATUSES.map((stored) => {
      const counts = impact.matrix[stored];
      return csvRow([
        result.version,
        result.from,
        result.to,
        condition,
        stored,
        ...RISK_STATUSES.map((status) => counts[status]),
        RISK_STATUSES.reduce((sum, status) => sum + (status === stored ? 0 : counts[status]), 0),
        impact.scoreChanged,
        rounded(impact.scoreChangeMean),
        ...agreementCells(impact.agreement.stored),
        ...agreementCells(impact.agreement.new),
      ]);
    });
  });
  return [csvRow(impactCsvHeader), ...rows].join('');
}

/** The file name of an impact result's CSV: the version and the range, no patient data. */
export function impactCsvFileName(result: Pick<ImpactResult, 'version' | 'from' | 'to'>): string {
  const range = `${result.from ?? 'start'}_${result.to ?? 'end'}`;
  return `rule-set-impact-${result.version.replace(/[^A-Za-z0-9.-]/g, '_')}-${range}.csv`;
}
