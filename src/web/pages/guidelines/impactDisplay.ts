import {
  impactCsv,
  impactCsvFileName,
  type ConditionImpact,
  type ImpactAgreement,
  type ImpactResult,
} from '../../../shared/rule-set-impact.ts';
import { saveBlob } from '../../api/reports.ts';

/** How many assessments the server has re-scored so far. */
export function impactProgressText(done: number, total: number | null): string {
  return total === null
    ? 'Starting the impact analysis...'
    : `Re-scored ${done} of ${total} assessments`;
}

function datesText(from: string | null, to: string | null): string {
  if (from !== null && to !== null) return `created ${from} to ${to}`;
  if (from !== null) return `created on or after ${from}`;
  if (to !== null) return `created on or before ${to}`;
  return 'of every date';
}

/** What the result counts: '12 live assessments of every date re-scored with ... (version 2.0).' */
export function impactRangeText(
  result: Pick<ImpactResult, 'version' | 'title' | 'from' | 'to' | 'assessments'>,
): string {
  const noun = result.assessments === 1 ? 'live assessment' : 'live assessments';
  return `${result.assessments} ${noun} ${datesText(result.from, result.to)} re-scored with ${result.title} (version ${result.version}).`;
}

/** Hands the result's CSV (impactCsv) to the browser's downloads. */
export function downloadImpactCsv(result: ImpactResult): void {
  saveBlob(
    new Blob([impactCsv(result)], { type: 'text/csv;charset=utf-8' }),
    impactCsvFileName(result),
  );
}

/** '2 of 3 (67%)' as a whole percentage, or 'No reviews' when the side counts none. */
export function agreedOfReviews({ reviews, agreed, share }: ImpactAgreement): string {
  if (reviews === 0 || share === null) return 'No reviews';
  return `${agreed} of ${reviews} (${Math.round(share * 100)}%)`;
}

/**
 * '3 (mean -0.50)': how many assessments' total score for the condition moves and by how much on
 * average, or 'None'. A weight moves scores without moving a status, which follows the count of
 * factors.
 */
export function scoreChangeText({
  scoreChanged,
  scoreChangeMean,
}: Pick<ConditionImpact, 'scoreChanged' | 'scoreChangeMean'>): string {
  if (scoreChanged === 0 || scoreChangeMean === null) return 'None';
  const mean = `${scoreChangeMean > 0 ? '+' : ''}${scoreChangeMean.toFixed(2)}`;
  return `${scoreChanged} (mean ${mean})`;
}
