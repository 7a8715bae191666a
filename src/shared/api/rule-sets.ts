import { z } from 'zod';
import { RULE_SETS, ruleSetSchema } from '../../engine/index.ts';

/** A rule set version as listed: its title (the rule set's name) and whether saves score with it. */
export const ruleSetSummarySchema = z.object({
  version: z.string(),
  title: z.string(),
  active: z.boolean(),
  /**
   * When the activation that made it active was recorded; null when it is not active, and for the
   * default when no activation was ever recorded.
   */
  activeSince: z.string().nullable(),
});
export type RuleSetSummary = z.infer<typeof ruleSetSummarySchema>;

/** Every rule set this build knows, the default first. */
export const ruleSetListSchema = z.array(ruleSetSummarySchema);

/** A whole rule set as data: the content of its file. */
export { ruleSetSchema };

export const ruleSetParamsSchema = z.object({ version: z.string().max(100) });

const knownVersions = RULE_SETS.map((ruleSet) => ruleSet.version) as [string, ...string[]];

export const unknownRuleSetMessage = 'No rule set of this version';

/** Activation names a version this build knows; anything else is refused on the field version. */
export const activateRuleSetBodySchema = z.strictObject({
  version: z.enum(knownVersions, { error: unknownRuleSetMessage }),
});
export type ActivateRuleSetBody = z.infer<typeof activateRuleSetBodySchema>;
