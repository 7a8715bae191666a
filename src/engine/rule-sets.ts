import { parseRuleSets } from './rule-set-schema.ts';
import guidelines20 from './rule-sets/2.0.json' with { type: 'json' };
import trialDm2Bmi025 from './rule-sets/2.0-dm2-bmi-0.25.json' with { type: 'json' };
import type { RuleSet } from './types.ts';

/**
 * Every rule set this build knows, the default first: each file is validated as the engine
 * loads, so a malformed one stops the server's start and every test run, naming the file and the
 * path of the fault. A stored result names its version, so a version once used stays listed.
 */
export const RULE_SETS: readonly RuleSet[] = parseRuleSets([
  { fileName: '2.0.json', data: guidelines20 },
  { fileName: '2.0-dm2-bmi-0.25.json', data: trialDm2Bmi025 },
]);

/** Clinical Guidelines Version 2.0: the rule set `score` uses unless given another. */
export const DEFAULT_RULE_SET: RuleSet = RULE_SETS[0] as RuleSet;

const byVersion: ReadonlyMap<string, RuleSet> = new Map(
  RULE_SETS.map((ruleSet) => [ruleSet.version, ruleSet]),
);

/** Whether this build knows a rule set version. */
export function isKnownRuleSetVersion(version: string): boolean {
  return byVersion.has(version);
}

/** The rule set of a version; throws for a version this build does not know. */
export function ruleSetByVersion(version: string): RuleSet {
  const ruleSet = byVersion.get(version);
  if (ruleSet === undefined) throw new RangeError(`Unknown rule set version ${version}`);
  return ruleSet;
}
