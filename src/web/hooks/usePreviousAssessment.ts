import { useEffect, useState } from 'react';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { PatientAssessment } from '../../shared/api/patients.ts';
import { latestBefore } from '../../shared/since-last.ts';
import { patientAssessments } from '../api/patients.ts';
import { errorMessage } from '../forms.ts';

export type PreviousAssessmentLoad =
  /** No patient record is chosen (or it is new): nothing to compare with. */
  | { status: 'none' }
  | { status: 'loading' }
  /** `previous` is null for the patient's first assessment. */
  | { status: 'loaded'; previous: PatientAssessment | null }
  | { status: 'failed'; message: string };

type Fetched = { patientId: string; load: PreviousAssessmentLoad };

/**
 * The assessment of the chosen patient record that this one is compared with: the server's
 * answer for a saved assessment of that record, otherwise the latest of the record's assessments
 * made before this one (all of them for an assessment not saved yet).
 */
export function usePreviousAssessment(
  patientId: string | null,
  saved: Assessment | null,
): PreviousAssessmentLoad {
  const fromServer = patientId !== null && saved !== null && saved.patient?.id === patientId;
  const savedId = saved?.id ?? null;
  const savedCreatedAt = saved?.createdAt ?? null;
  const [fetched, setFetched] = useState<Fetched | null>(null);

  useEffect(() => {
    if (patientId === null || fromServer) return;
    const controller = new AbortController();
    const current =
      savedId === null || savedCreatedAt === null
        ? null
        : { id: savedId, createdAt: savedCreatedAt };
    patientAssessments(patientId, controller.signal).then(
      (items) => {
        if (controller.signal.aborted) return;
        setFetched({
          patientId,
          load: { status: 'loaded', previous: latestBefore(items, current) },
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setFetched({ patientId, load: { status: 'failed', message: errorMessage(error) } });
      },
    );
    return () => controller.abort();
  }, [patientId, fromServer, savedId, savedCreatedAt]);

  if (patientId === null) return { status: 'none' };
  if (fromServer) return { status: 'loaded', previous: saved.previousAssessment };
  return fetched?.patientId === patientId ? fetched.load : { status: 'loading' };
}
