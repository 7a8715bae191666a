import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getOrgUnitSummary } from '../api/org-units.ts';
import { queryKeys } from './serverState.ts';

/**
 * A unit's roll-up (the top of the user's scope when `unitId` is undefined) over whole days,
 * cached per unit and days; the rows on screen stay while the next unit's load.
 */
export function useOrgUnitSummary(
  unitId: string | undefined,
  dates: { from?: string | undefined; to?: string | undefined },
) {
  const { from, to } = dates;
  return useQuery({
    queryKey: queryKeys.orgUnitSummary(unitId, { from, to }),
    queryFn: ({ signal }) => getOrgUnitSummary(unitId, { from, to }, signal),
    placeholderData: keepPreviousData,
  });
}
