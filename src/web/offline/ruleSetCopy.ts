import { ruleSetListSchema, type RuleSetSummary } from '../../shared/api/rule-sets.ts';
import { ApiError } from '../api/client.ts';
import { listRuleSets } from '../api/rule-sets.ts';

/**
 * The last list of rule sets the server gave, kept on the device so that the wizard scores
 * offline with the active rules. It holds rules, not patient data.
 */
const copyKey = 'triage.ruleSets';

function readCopy(): RuleSetSummary[] | null {
  try {
    const text = localStorage.getItem(copyKey);
    if (text === null) return null;
    const parsed = ruleSetListSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function writeCopy(list: RuleSetSummary[]): void {
  try {
    localStorage.setItem(copyKey, JSON.stringify(list));
  } catch {
    // Without storage the wizard still works online.
  }
}

/** The server's list, or the copy from the last answer when the network is down. */
export async function listRuleSetsOrCopy(signal?: AbortSignal): Promise<RuleSetSummary[]> {
  try {
    const list = await listRuleSets(signal);
    writeCopy(list);
    return list;
  } catch (error) {
    const copy = error instanceof ApiError && error.code === 'network' ? readCopy() : null;
    if (copy === null) throw error;
    return copy;
  }
}
