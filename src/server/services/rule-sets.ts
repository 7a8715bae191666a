import {
  DEFAULT_RULE_SET,
  isKnownRuleSetVersion,
  RULE_SETS,
  ruleSetByVersion,
  type RuleSet,
} from '../../engine/index.ts';
import type { SessionUser } from '../../shared/api/session.ts';
import type { RuleSetSummary } from '../../shared/api/rule-sets.ts';
import { unknownRuleSetMessage } from '../../shared/api/rule-sets.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/repositories/executor.ts';
import {
  ruleSetActivationsRepository,
  type RuleSetActivationRow,
} from '../db/repositories/rule-set-activations.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { recordAudit } from './audit.ts';

export interface Requester {
  user: SessionUser;
  address: string | null;
}

/**
 * Said when the recorded activation names a version this build does not know (a build without
 * its file, or an older build started on a newer database). Saves are refused rather than scored
 * with another rule set than the one an administrator chose; activating a known version mends it.
 */
export function unknownActiveVersionMessage(version: string): string {
  return (
    `The active rule set version ${version} is not known to this server ` +
    `(it knows ${RULE_SETS.map((ruleSet) => ruleSet.version).join(', ')}). ` +
    'Saving is refused until an administrator activates a known version on the Guidelines page.'
  );
}

function activeVersionOf(latest: RuleSetActivationRow | undefined): string {
  return latest?.version ?? DEFAULT_RULE_SET.version;
}

/**
 * The rule set saves score with, read with the caller's executor (the save's transaction): the
 * latest activation, or the default when none was recorded. Throws when the recorded version is
 * not one this build knows.
 */
export async function activeRuleSet(db: Executor): Promise<RuleSet> {
  const version = activeVersionOf(await ruleSetActivationsRepository.latest(db));
  if (!isKnownRuleSetVersion(version)) {
    throw new AppError(500, 'internal', unknownActiveVersionMessage(version));
  }
  return ruleSetByVersion(version);
}

/** The recorded active version when this build does not know it, for a warning at start. */
export async function unknownActiveVersion(context: AppContext): Promise<string | undefined> {
  const version = activeVersionOf(await ruleSetActivationsRepository.latest(context.database.db));
  return isKnownRuleSetVersion(version) ? undefined : version;
}

function summaries(latest: RuleSetActivationRow | undefined): RuleSetSummary[] {
  const activeVersion = activeVersionOf(latest);
  return RULE_SETS.map((ruleSet) => {
    const active = ruleSet.version === activeVersion;
    return {
      version: ruleSet.version,
      title: ruleSet.name,
      active,
      activeSince: active ? (latest?.activated_at ?? null) : null,
    };
  });
}

/** Every rule set this build knows, the default first, the active one marked. */
export async function listRuleSets(context: AppContext): Promise<RuleSetSummary[]> {
  return summaries(await ruleSetActivationsRepository.latest(context.database.db));
}

/** A whole rule set as data; 404 for a version this build does not know. */
export function ruleSetData(version: string): RuleSet {
  if (!isKnownRuleSetVersion(version)) throw new AppError(404, 'not_found', unknownRuleSetMessage);
  return ruleSetByVersion(version);
}

/**
 * Makes a version the one saves score with, from now on: one activation row and its audit row in
 * one transaction. Stored results keep the version they were scored with until updated.
 */
export async function activateRuleSet(
  context: AppContext,
  requester: Requester,
  version: string,
): Promise<RuleSetSummary> {
  if (!isKnownRuleSetVersion(version)) {
    throw new AppError(400, 'validation_failed', `version: ${unknownRuleSetMessage}`, 'version');
  }
  return context.database.transaction(async (trx) => {
    await ruleSetActivationsRepository.serialize(trx, context.database.engine);
    // The latest activation is the one in force: one made in the same millisecond as the one
    // before it (two clicks, a test's clock) is dated a millisecond after it, so that it wins.
    const previous = await ruleSetActivationsRepository.latest(trx);
    const clock = context.now();
    const now =
      previous !== undefined && Date.parse(previous.activated_at) >= clock.getTime()
        ? new Date(Date.parse(previous.activated_at) + 1)
        : clock;
    const activation = {
      id: timeOrderedId(now.getTime()),
      version,
      activated_at: now.toISOString(),
      activated_by: requester.user.id,
    };
    await ruleSetActivationsRepository.insert(trx, activation);
    await recordAudit(trx, {
      at: clock,
      actor: requester.user,
      action: 'rule_set_activate',
      target: { type: 'rule_set', id: version },
      address: requester.address,
    });
    const activated = summaries(activation).find((summary) => summary.version === version);
    if (activated === undefined) throw new Error(`No rule set summary for ${version}`);
    return activated;
  });
}
