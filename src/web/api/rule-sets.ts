import type { RuleSet } from '../../engine/index.ts';
import {
  ruleSetListSchema,
  ruleSetSchema,
  ruleSetSummarySchema,
  type RuleSetSummary,
} from '../../shared/api/rule-sets.ts';
import { apiRequest } from './client.ts';

/** Every rule set version the server knows, the default first, the active one marked. */
export function listRuleSets(signal?: AbortSignal): Promise<RuleSetSummary[]> {
  return apiRequest('/api/rule-sets', { schema: ruleSetListSchema, signal });
}

/** A whole rule set: every weight, threshold and cap of the version. */
export function getRuleSet(version: string, signal?: AbortSignal): Promise<RuleSet> {
  return apiRequest(`/api/rule-sets/${encodeURIComponent(version)}`, {
    schema: ruleSetSchema,
    signal,
  });
}

/** Makes a version the one saves score with (admins only). */
export function activateRuleSet(version: string): Promise<RuleSetSummary> {
  return apiRequest('/api/rule-sets/active', {
    method: 'PUT',
    body: { version },
    schema: ruleSetSummarySchema,
  });
}
