import { isKnownRuleSetVersion, ruleSetByVersion, type RuleSet } from '../../engine/index.ts';
import type { RuleSetSummary } from '../../shared/api/rule-sets.ts';
import { wizardTexts } from '../components/assessment/messages.ts';

/** The rule set the server scores saves with, as the wizard knows it. */
export type ActiveRuleSet =
  | { status: 'loading' }
  | { status: 'ok'; ruleSet: RuleSet }
  | { status: 'failed'; message: string };

/**
 * The active rule set of the server's list. None active, or one this page does not know (a page
 * loaded before a newer build), is a failure: live results would differ from what a save stores.
 */
export function activeRuleSetOf(list: readonly RuleSetSummary[]): ActiveRuleSet {
  const active = list.find((summary) => summary.active);
  if (active === undefined) return { status: 'failed', message: wizardTexts.noActiveRuleSet };
  if (!isKnownRuleSetVersion(active.version)) {
    return { status: 'failed', message: wizardTexts.unknownRuleSet(active.version) };
  }
  return { status: 'ok', ruleSet: ruleSetByVersion(active.version) };
}

/** How a result names its rules: 'Clinical Guidelines Version 2.0 (version 2.0)'. */
export function ruleSetLabel(version: string): string {
  return isKnownRuleSetVersion(version)
    ? `${ruleSetByVersion(version).name} (version ${version})`
    : `version ${version}`;
}
