import { useEffect, useState } from 'react';
import type { Patient } from '../../shared/api/patients.ts';
import { searchPatients } from '../api/patients.ts';
import { errorMessage } from '../forms.ts';

/** How long typing must pause before the search is sent. */
export const patientSearchDelayMs = 250;

export type PatientSearch =
  | { status: 'idle' }
  /** The answer for `query` is awaited; the records found for the text before stay listed. */
  | { status: 'searching'; query: string; items: readonly Patient[] }
  | { status: 'loaded'; query: string; items: readonly Patient[]; total: number }
  | { status: 'failed'; query: string; message: string };

/**
 * Live patient records whose number or name starts with the text, searched once typing pauses.
 * A newer text aborts the search for an older one, so answers never arrive out of order.
 */
export function usePatientSearch(
  text: string,
  { enabled = true, limit = 8 }: { enabled?: boolean; limit?: number } = {},
): PatientSearch {
  const query = enabled ? text.trim() : '';
  const [search, setSearch] = useState<PatientSearch>({ status: 'idle' });

  useEffect(() => {
    if (query === '') {
      setSearch({ status: 'idle' });
      return;
    }
    setSearch((current) => ({
      status: 'searching',
      query,
      items: current.status === 'loaded' || current.status === 'searching' ? current.items : [],
    }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchPatients(query, { limit, signal: controller.signal }).then(
        (list) => {
          if (!controller.signal.aborted) {
            setSearch({ status: 'loaded', query, items: list.items, total: list.total });
          }
        },
        (error: unknown) => {
          if (!controller.signal.aborted) {
            setSearch({ status: 'failed', query, message: errorMessage(error) });
          }
        },
      );
    }, patientSearchDelayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, limit]);

  return search;
}
