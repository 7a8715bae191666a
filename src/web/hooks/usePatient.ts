import { useQuery } from '@tanstack/react-query';
import { getPatient, patientAssessments } from '../api/patients.ts';
import { queryKeys } from './serverState.ts';

/** A patient record and its live assessments, newest first, read together. */
export function usePatient(id: string) {
  return useQuery({
    queryKey: queryKeys.patient(id),
    queryFn: async ({ signal }) => {
      const [patient, assessments] = await Promise.all([
        getPatient(id, signal),
        patientAssessments(id, signal),
      ]);
      return { patient, assessments };
    },
    // The page says at once why it could not load and offers Try Again, as it always has.
    retry: false,
  });
}
