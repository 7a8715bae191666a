import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ConditionReview, Review } from '../../shared/api/reviews.ts';
import { getReview, lockReview, saveReview } from '../api/reviews.ts';
import { queryKeys, reviewLocked, reviewSaved } from './serverState.ts';

/** The doctor's review of one assessment. */
export function useReview(assessmentId: string) {
  return useQuery({
    queryKey: queryKeys.review(assessmentId),
    queryFn: ({ signal }) => getReview(assessmentId, signal),
  });
}

/** The stored review as it is now (after a refused save or lock), kept in the cache too. */
export function fetchReview(queryClient: QueryClient, assessmentId: string): Promise<Review> {
  return queryClient.fetchQuery({
    queryKey: queryKeys.review(assessmentId),
    queryFn: ({ signal }) => getReview(assessmentId, signal),
    staleTime: 0,
  });
}

/** Replaces the review's rows; a locked review is refused with 409 review_locked. */
export function useSaveReview(assessmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reviews: ConditionReview[]) => saveReview(assessmentId, reviews),
    onSuccess: (review) => reviewSaved(queryClient, assessmentId, review),
  });
}

/** Saves the rows and locks the review in one step; the agreement, worklists and history follow. */
export function useLockReview(assessmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reviews: ConditionReview[]) => lockReview(assessmentId, reviews),
    onSuccess: (review) => {
      void reviewLocked(queryClient, assessmentId, review);
    },
  });
}
