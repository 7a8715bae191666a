import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getAssessment, signOffAssessment } from '../api/assessments.ts';
import { ApiError } from '../api/client.ts';
import { deleteAssessment } from '../api/history.ts';
import {
  assessmentDeleted,
  assessmentListsChanged,
  assessmentStored,
  queryKeys,
} from './serverState.ts';

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

/**
 * Deletes an assessment as the user saw it (`version`). Done, it leaves the history at once; refused
 * because someone changed it since (412), nothing was deleted and the lists are read as they are.
 */
export function useDeleteAssessment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) => deleteAssessment(id, version),
    onSuccess: (_, { id }) => {
      void assessmentDeleted(queryClient, id);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 412) {
        void assessmentListsChanged(queryClient);
      }
    },
  });
}
