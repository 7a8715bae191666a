import { parseRuleSets, type RuleSetFile } from './rule-set-schema.ts';
import guidelines20 from './rule-sets/2.0.json' with { type: 'json' };
import trialDm2Bmi025 from './rule-sets/2.0-dm2-bmi-0.25.json' with { type: 'json' };
import type { RuleSet } from './types.ts';

/** The rule set files this build ships, the default first. */
const RULE_SET_FILES: readonly RuleSetFile[] = [
  { fileName: '2.0.json', data: guidelines20 },
  { fileName: '2.0-dm2-bmi-0.25.json', data: trialDm2Bmi025 },
];

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Every rule set this build knows, the default first, as its file holds it (frozen). A stored
 * result names its version, so a version once used stays listed. The files are validated by
 * checkRuleSets, which every `triage` command, every build of the web app and the tests run
 * first, rather than as the engine loads: a browser would otherwise spend its first view
 * checking what its build had checked.
 */
export const RULE_SETS: readonly RuleSet[] = RULE_SET_FILES.map(({ data }) =>
  deepFreeze(data as RuleSet),
);

/**
 * Validates every rule set file (parseRuleSets): throws naming the file and the path of each
 * fault, so that a malformed one stops the server's start, the build and every test run.
 */
export function checkRuleSets(): void {
  parseRuleSets(RULE_SET_FILES);
}

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
