import { useEffect, useRef, useState } from 'react';
import type { Patient } from '../../shared/api/patients.ts';
import { searchPatients } from '../api/patients.ts';
import { ApiError } from '../api/client.ts';
import { errorMessage } from '../forms.ts';

/** How long typing must pause before the search is sent. */
export const patientSearchDelayMs = 250;

export type PatientSearch =
  | { status: 'idle' }
  /** The answer for `query` is awaited; the records found for the text before stay listed. */
  | { status: 'searching'; query: string; items: readonly Patient[] }
  | {
      status: 'loaded';
      query: string;
      items: readonly Patient[];
      total: number;
      /** The server's records, or, without a network, those kept on this device. */
      source: 'server' | 'device';
    }
  | { status: 'failed'; query: string; message: string };

/** What the device keeps for a search without a network (see OutboxContext). */
export interface KeptPatientSearch {
  keep: (patients: readonly Patient[]) => Promise<void>;
  /** Null while what the device keeps is locked. */
  search: (text: string) => Promise<Patient[] | null>;
}

/**
 * Live patient records whose number or name starts with the text, searched once typing pauses.
 * A newer text aborts the search for an older one, so answers never arrive out of order. Records
 * found are kept on the device; without a network the kept ones are searched instead.
 */
export function usePatientSearch(
  text: string,
  {
    enabled = true,
    limit = 8,
    kept,
  }: { enabled?: boolean; limit?: number; kept?: KeptPatientSearch } = {},
): PatientSearch {
  const query = enabled ? text.trim() : '';
  const [search, setSearch] = useState<PatientSearch>({ status: 'idle' });
  // Read when a search answers, so that a change of what the device keeps sends no new search.
  const keptRef = useRef(kept);
  useEffect(() => {
    keptRef.current = kept;
  });

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
    const searchDevice = async () => {
      const found = ((await keptRef.current?.search(query)) ?? []).slice(0, limit);
      if (controller.signal.aborted) return;
      setSearch({ status: 'loaded', query, items: found, total: found.length, source: 'device' });
    };
    const timer = setTimeout(() => {
      searchPatients(query, { limit, signal: controller.signal }).then(
        (list) => {
          if (controller.signal.aborted) return;
          setSearch({
            status: 'loaded',
            query,
            items: list.items,
            total: list.total,
            source: 'server',
          });
          keptRef.current?.keep(list.items).catch(() => undefined);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (
            keptRef.current !== undefined &&
            error instanceof ApiError &&
            error.code === 'network'
          ) {
            searchDevice().catch((failure: unknown) => {
              if (!controller.signal.aborted) {
                setSearch({ status: 'failed', query, message: errorMessage(failure) });
              }
            });
            return;
          }
          setSearch({ status: 'failed', query, message: errorMessage(error) });
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
