import { RULE_SET_V2 } from './rules-v2.ts';
import type { RuleSet } from './types.ts';

/** Every rule set a stored result may name, so that a record is always re-read with its own. */
const ruleSets: ReadonlyMap<string, RuleSet> = new Map([[RULE_SET_V2.version, RULE_SET_V2]]);

/** The rule set of a version; throws for a version this build does not know. */
export function ruleSetByVersion(version: string): RuleSet {
  const ruleSet = ruleSets.get(version);
  if (ruleSet === undefined) throw new RangeError(`Unknown rule set version ${version}`);
  return ruleSet;
}
