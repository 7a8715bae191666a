import { CONDITIONS, type Condition, type RiskStatus } from '../engine/index.ts';
import type { PatientAssessment } from './api/patients.ts';
import { formatBmi, formatScore } from './display.ts';

/**
 * What changed since a patient's previous assessment, for the results screen and the reports.
 * Changes are taken between the figures as they read (spec 9.1: scores to 4 decimals, BMI to 1),
 * so that a change always agrees with the two figures shown beside it.
 */

/** The assessment being looked at: its BMI and one result per condition. */
export interface SinceLastCurrent {
  bmi: number;
  results: ReadonlyArray<{ condition: Condition; riskStatus: RiskStatus; totalScore: number }>;
}

export interface ConditionSinceLast {
  condition: Condition;
  /** Null when that assessment has no result for the condition. */
  statusThen: RiskStatus | null;
  statusNow: RiskStatus | null;
  scoreThen: number | null;
  scoreNow: number | null;
  /** Now minus then, at display precision; null when either side has no result. */
  scoreChange: number | null;
}

export interface SinceLast {
  previousId: string;
  previousCode: string | null;
  /** When the previous assessment was made (ISO-8601 instant). */
  previousDate: string;
  /** The rule set that scored the previous assessment: scores of different rule sets differ. */
  previousRuleSetVersion: string;
  bmiThen: number;
  bmiNow: number;
  /** Now minus then, at display precision; null when either BMI is unknown (0: no height or weight). */
  bmiChange: number | null;
  /** Every condition either assessment scored, in the product's order. */
  conditions: ConditionSinceLast[];
}

const scoreDigits = 4;
const bmiDigits = 1;

function atPrecision(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

/** `now - then` as the two figures read at `digits` decimals. */
function changeAt(now: number, then: number, digits: number): number {
  const change = atPrecision(atPrecision(now, digits) - atPrecision(then, digits), digits);
  // -0 would read as a change.
  return change === 0 ? 0 : change;
}

export function sinceLast(current: SinceLastCurrent, previous: PatientAssessment): SinceLast {
  const conditions: ConditionSinceLast[] = [];
  for (const condition of CONDITIONS) {
    const now = current.results.find((result) => result.condition === condition);
    const then = previous.results.find((result) => result.condition === condition);
    if (now === undefined && then === undefined) continue;
    conditions.push({
      condition,
      statusThen: then?.riskStatus ?? null,
      statusNow: now?.riskStatus ?? null,
      scoreThen: then?.totalScore ?? null,
      scoreNow: now?.totalScore ?? null,
      scoreChange:
        now === undefined || then === undefined
          ? null
          : changeAt(now.totalScore, then.totalScore, scoreDigits),
    });
  }
  return {
    previousId: previous.id,
    previousCode: previous.code,
    previousDate: previous.createdAt,
    previousRuleSetVersion: previous.ruleSetVersion,
    bmiThen: previous.bmi,
    bmiNow: current.bmi,
    bmiChange:
      current.bmi > 0 && previous.bmi > 0 ? changeAt(current.bmi, previous.bmi, bmiDigits) : null,
    conditions,
  };
}

/** The words for no change at all. */
export const noChange = 'no change';

function signed(change: number, format: (value: number) => string): string {
  if (change === 0) return noChange;
  // A true minus sign, as typeset figures use.
  return `${change > 0 ? '+' : '\u2212'}${format(Math.abs(change))}`;
}

/** '+1.5000', '−0.7500' or 'no change'. */
export function formatScoreChange(change: number): string {
  return signed(change, formatScore);
}

/** '+1.2', '−0.3' or 'no change'. */
export function formatBmiChange(change: number): string {
  return signed(change, formatBmi);
}

/**
 * The assessment an assessment is compared with, from the patient's assessments: the latest made
 * before `current`, or the latest of all for an assessment not saved yet (`current` null), which
 * is made now.
 */
export function latestBefore(
  assessments: readonly PatientAssessment[],
  current: { id: string; createdAt: string } | null,
): PatientAssessment | null {
  const cutoff = current === null ? Infinity : Date.parse(current.createdAt);
  let latest: PatientAssessment | null = null;
  for (const assessment of assessments) {
    if (assessment.id === current?.id) continue;
    const made = Date.parse(assessment.createdAt);
    if (made < cutoff && (latest === null || made > Date.parse(latest.createdAt))) {
      latest = assessment;
    }
  }
  return latest;
}
