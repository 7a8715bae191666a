import { useQuery } from '@tanstack/react-query';
import { getAgreementSummary, type AgreementDates } from '../api/reviews.ts';
import { queryKeys } from './serverState.ts';

/** The Doctor Agreement over a date range, cached per range. */
export function useAgreement(dates: AgreementDates) {
  const { from, to } = dates;
  return useQuery({
    queryKey: queryKeys.agreement({ from, to }),
    queryFn: ({ signal }) => getAgreementSummary({ from, to }, signal),
  });
}
