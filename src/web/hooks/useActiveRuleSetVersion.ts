import { useQuery } from '@tanstack/react-query';
import { listRuleSetsOrCopy } from '../offline/ruleSetCopy.ts';
import { queryKeys } from './serverState.ts';

/**
 * The version of the rule set saves score with, or undefined until known. Offline it is read
 * from the copy kept on the device, so the query runs whatever the network.
 */
export function useActiveRuleSetVersion(): string | undefined {
  const { data } = useQuery({
    queryKey: queryKeys.ruleSets(),
    queryFn: ({ signal }) => listRuleSetsOrCopy(signal),
    networkMode: 'always',
  });
  return data?.find((summary) => summary.active)?.version;
}
