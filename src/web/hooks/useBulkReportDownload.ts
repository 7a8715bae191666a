import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchBulkExport, saveFile, type BulkExportFormat } from '../api/exports.ts';
import type { HistoryFilter } from '../api/history.ts';

/** The spec's bulk report failure alert (section 8). */
export const bulkReportFailureMessage =
  'Failed to generate comprehensive reports. Please try again.';

export interface BulkDownloadProgress {
  format: BulkExportFormat;
  receivedBytes: number;
}

/**
 * 'Download All Reports': the bulk text report, then the CSV, each narrowed like the history and
 * saved under the server's file name. `progress` is null when idle.
 */
export function useBulkReportDownload(filter: HistoryFilter, onFailure: () => void) {
  const [progress, setProgress] = useState<BulkDownloadProgress | null>(null);
  const request = useRef<AbortController | null>(null);

  useEffect(() => () => request.current?.abort(), []);

  const start = useCallback(async () => {
    const controller = new AbortController();
    request.current = controller;
    try {
      for (const format of ['txt', 'csv'] as const) {
        setProgress({ format, receivedBytes: 0 });
        const file = await fetchBulkExport(
          format,
          filter,
          (receivedBytes) => setProgress({ format, receivedBytes }),
          controller.signal,
        );
        saveFile(file);
      }
    } catch {
      // Leaving the page aborts the download, which is not a failure to report.
      if (!controller.signal.aborted) onFailure();
    } finally {
      if (!controller.signal.aborted) setProgress(null);
    }
  }, [filter, onFailure]);

  return { progress, start };
}
