import { useQuery } from '@tanstack/react-query';
import { listOrgUnits } from '../api/org-units.ts';
import { queryKeys } from './serverState.ts';

/** The tree of organisation units within the caller's scope, each unit after its parent. */
export function useOrgUnits() {
  return useQuery({
    queryKey: queryKeys.orgUnits(),
    queryFn: ({ signal }) => listOrgUnits(signal),
  });
}
