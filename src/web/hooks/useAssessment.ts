import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getAssessment, signOffAssessment } from '../api/assessments.ts';
import { assessmentStored, queryKeys } from './serverState.ts';

/** One stored assessment, shared by the saved assessment and review views. */
export function useAssessment(id: string) {
  return useQuery({
    queryKey: queryKeys.assessment(id),
    queryFn: ({ signal }) => getAssessment(id, signal),
  });
}

/** Signs off the version the user saw; refused (412) if someone changed it since. */
export function useSignOffAssessment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      signOffAssessment(id, version),
    onSuccess: (assessment) => {
      void assessmentStored(queryClient, assessment);
    },
  });
}
