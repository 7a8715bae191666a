import { useQuery } from '@tanstack/react-query';
import { getAgreementSummary, type AgreementDates } from '../api/reviews.ts';
import { queryKeys } from './serverState.ts';

/** The Doctor Agreement over a date range (and a unit), cached per range and unit. */
export function useAgreement(dates: AgreementDates) {
  const { from, to, unit } = dates;
  return useQuery({
    queryKey: queryKeys.agreement({ from, to, unit }),
    queryFn: ({ signal }) => getAgreementSummary({ from, to, unit }, signal),
  });
}
