import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Scope } from '../auth/scope.ts';
import {
  CONDITIONS,
  RISK_STATUSES,
  ruleSetByVersion,
  score,
  type Condition,
  type RiskStatus,
  type RuleSet,
} from '../../engine/index.ts';
import { MATRIX_STATUSES } from '../../shared/api/reviews.ts';
import { cohensKappa } from '../../shared/kappa.ts';
import type {
  ConditionImpact,
  ImpactAgreement,
  ImpactResult,
  ImpactStatusCounts,
} from '../../shared/rule-set-impact.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { assessmentsRepository } from '../db/repositories/assessments.ts';
import {
  ruleSetImpactRepository,
  type ImpactAssessment,
  type LockedReviewRow,
} from '../db/repositories/rule-set-impact.ts';
import { storedPatientInput } from './assessment-records.ts';
import type { Requester } from '../auth/requester.ts';
import { historyFilter } from './assessments.ts';
import { recordAudit } from './audit.ts';

/** Whole local days, both inclusive, either open; already validated (from not after to). */
export interface ImpactRange {
  from?: string | undefined;
  to?: string | undefined;
}

export interface ImpactProgress {
  /** Assessments re-scored so far. */
  done: number;
  /** Live assessments in the range when the analysis began. */
  total: number;
}

export interface ImpactOptions {
  /** Called after each page, before the next is read. */
  onProgress?: (progress: ImpactProgress) => void;
  /** Stops the analysis between pages (a client that went away). */
  signal?: AbortSignal;
}

/** The rule set of a version, or a 404 naming the version: an analysis asks for it by URL. */
export function ruleSetForImpact(version: string): RuleSet {
  try {
    return ruleSetByVersion(version);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new AppError(404, 'not_found', `There is no rule set version ${version}.`);
    }
    throw error;
  }
}

function statusIndex(status: string): number {
  return (RISK_STATUSES as readonly string[]).indexOf(status);
}

function matrixIndex(status: string | null): number {
  return status === null ? -1 : (MATRIX_STATUSES as readonly string[]).indexOf(status);
}

/** One side's tally of the reviews it can judge, and the pairs of kappa. */
class AgreementTally {
  reviews = 0;
  agreed = 0;
  readonly kappaPairs = MATRIX_STATUSES.map(() => MATRIX_STATUSES.map(() => 0));

  count(agreed: boolean, rulesStatus: string, doctorStatus: string | null): void {
    this.reviews += 1;
    if (agreed) this.agreed += 1;
    // UNKNOWN is no status a doctor gives, so a pair with it is no rating kappa can compare.
    const row = this.kappaPairs[matrixIndex(rulesStatus)];
    const column = matrixIndex(doctorStatus);
    if (row !== undefined && column !== -1) row[column] = (row[column] ?? 0) + 1;
  }

  summary(): ImpactAgreement {
    return {
      reviews: this.reviews,
      agreed: this.agreed,
      share: this.reviews === 0 ? null : this.agreed / this.reviews,
      kappa: cohensKappa(this.kappaPairs),
      kappaReviews: this.kappaPairs.flat().reduce((sum, n) => sum + n, 0),
    };
  }
}

/** What one condition accumulates over every page. */
class ConditionTally {
  /** Stored status (row) by new status (column), in the order of RISK_STATUSES. */
  readonly matrix = RISK_STATUSES.map(() => RISK_STATUSES.map(() => 0));
  readonly stored = new AgreementTally();
  readonly new = new AgreementTally();
  scoreChanged = 0;
  scoreChangeSum = 0;

  rescored(stored: number, next: number, scoreChange: number): void {
    const row = this.matrix[stored];
    if (row !== undefined) row[next] = (row[next] ?? 0) + 1;
    // The same sums in the same order give the same number; anything else is a change.
    if (scoreChange !== 0) {
      this.scoreChanged += 1;
      this.scoreChangeSum += scoreChange;
    }
  }

  /**
   * A locked, decided review of the condition (decision 0004). Under the stored rules the doctor
   * agreed when they chose Agree. Under the version: an Agree endorsed the stored status, a
   * Disagree with a status named that status; a Disagree without one is known to disagree only
   * while the status is the stored one, and is left out of the version's figures otherwise.
   */
  reviewed(review: LockedReviewRow, stored: RiskStatus, next: RiskStatus): void {
    const { agreed } = review;
    const doctorStatus = agreed ? stored : review.doctor_status;
    this.stored.count(agreed, stored, doctorStatus);
    if (doctorStatus !== null) this.new.count(next === doctorStatus, next, doctorStatus);
    else if (next === stored) this.new.count(false, next, null);
  }

  summary(): ConditionImpact {
    const counts = (row: readonly number[]) =>
      Object.fromEntries(
        RISK_STATUSES.map((status, index) => [status, row[index] ?? 0]),
      ) as ImpactStatusCounts;
    return {
      changed: this.matrix.reduce(
        (sum, row, stored) =>
          sum + row.reduce((off, n, next) => off + (next === stored ? 0 : n), 0),
        0,
      ),
      matrix: Object.fromEntries(
        RISK_STATUSES.map((status, index) => [status, counts(this.matrix[index] ?? [])]),
      ) as ConditionImpact['matrix'],
      scoreChanged: this.scoreChanged,
      scoreChangeMean: this.scoreChanged === 0 ? null : this.scoreChangeSum / this.scoreChanged,
      agreement: { stored: this.stored.summary(), new: this.new.summary() },
    };
  }
}

/** Re-scores a page's assessments from their stored answers into the tallies. */
function tallyPage(
  page: readonly ImpactAssessment[],
  ruleSet: RuleSet,
  tallies: ReadonlyMap<Condition, ConditionTally>,
): void {
  for (const assessment of page) {
    const input = storedPatientInput(assessment);
    const storedResults = new Map(
      assessment.statuses.map(([condition, status, totalScore]) => [
        condition,
        { status, totalScore },
      ]),
    );
    for (const result of score(input, ruleSet).conditions) {
      const storedResult = storedResults.get(result.condition);
      const tally = tallies.get(result.condition);
      // Every save stores a result per condition; a row missing all the same has nothing to compare.
      if (storedResult === undefined || tally === undefined) continue;
      const stored = storedResult.status;
      tally.rescored(
        statusIndex(stored),
        statusIndex(result.riskStatus),
        result.totalScore - storedResult.totalScore,
      );
      for (const review of assessment.reviews) {
        if (review.condition === result.condition)
          tally.reviewed(review, stored, result.riskStatus);
      }
    }
  }
}

/**
 * The impact of a rule set: every live assessment in the range re-scored under it from its
 * stored answers, per condition the stored status against the new one, and the agreement of each
 * with the locked doctor reviews. Reads a page at a time and holds only the tallies between
 * pages; yields to the event loop after each page, so that the server (node:sqlite is
 * synchronous) goes on answering other requests while an analysis runs.
 */
export async function analyseRuleSetImpact(
  context: AppContext,
  scope: Scope,
  ruleSet: RuleSet,
  range: ImpactRange,
  options: ImpactOptions = {},
): Promise<ImpactResult> {
  const { db, engine } = context.database;
  const filter = historyFilter(range, context.config.timeZone);
  const total = await assessmentsRepository.count(db, engine, scope, filter);
  const tallies = new Map(CONDITIONS.map((condition) => [condition, new ConditionTally()]));
  let done = 0;
  for await (const page of ruleSetImpactRepository.pages(db, engine, scope, filter)) {
    options.signal?.throwIfAborted();
    tallyPage(page, ruleSet, tallies);
    done += page.length;
    // Saves made in the range while the analysis runs may take it past the first count.
    options.onProgress?.({ done, total: Math.max(total, done) });
    await yieldToEventLoop();
  }
  return {
    version: ruleSet.version,
    title: ruleSet.name,
    from: range.from ?? null,
    to: range.to ?? null,
    assessments: done,
    conditions: Object.fromEntries(
      CONDITIONS.map((condition) => [
        condition,
        (tallies.get(condition) as ConditionTally).summary(),
      ]),
    ) as ImpactResult['conditions'],
  };
}

/**
 * A user's impact analysis of a version, audited as `rule_set_impact` naming the version once it
 * has run (never the dates: the audit trail says who measured what, not which patients).
 */
export async function ruleSetImpactFor(
  context: AppContext,
  requester: Requester,
  ruleSet: RuleSet,
  range: ImpactRange,
  options: ImpactOptions = {},
): Promise<ImpactResult> {
  const result = await analyseRuleSetImpact(context, requester.scope, ruleSet, range, options);
  await recordAudit(context.database.db, {
    at: context.now(),
    actor: requester.user,
    action: 'rule_set_impact',
    target: { type: 'rule_set', id: ruleSet.version },
    address: requester.address,
  });
  return result;
}
