import type { ExportQuery } from '../../shared/api/exports.ts';
import { friendlyMessages } from '../../shared/texts.ts';
import { ApiError, apiUrl, responseError } from './client.ts';

/** The two files of 'Download All Reports': the bulk text report and the CSV. */
export type BulkExportFormat = 'txt' | 'csv';

const exportPaths: Record<BulkExportFormat, string> = {
  txt: '/api/exports/assessments.txt',
  csv: '/api/exports/assessments.csv',
};

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/**
 * The file name a Content-Disposition header gives (`filename*=UTF-8''...` first, then
 * `filename="..."`), without any folder part; the fallback when it gives none.
 */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (header === null) return fallback;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1] !== undefined) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = undefined;
    }
  }
  name ??=
    /filename\s*=\s*"([^"]*)"/.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/.exec(header)?.[1];
  const base = name?.split(/[/\\]/).pop()?.trim();
  return base === undefined || base === '' ? fallback : base;
}

/**
 * Fetches one bulk export narrowed like the history (search and dates), reading the stream as it
 * arrives so that `onProgress` can report the bytes received so far. Failures are ApiErrors.
 */
export async function fetchBulkExport(
  format: BulkExportFormat,
  query: ExportQuery,
  onProgress: (receivedBytes: number) => void,
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(apiUrl(exportPaths[format], { ...query }), {
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ApiError(0, 'network', friendlyMessages.network);
  }
  if (!response.ok) throw await responseError(response);

  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  onProgress(0);
  if (response.body !== null) {
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        onProgress(received);
      }
    } catch (error) {
      if (signal?.aborted === true) throw error;
      throw new ApiError(0, 'network', friendlyMessages.network);
    }
  }
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  return {
    blob: new Blob(chunks, { type }),
    fileName: fileNameFromDisposition(
      response.headers.get('content-disposition'),
      `assessments.${format}`,
    ),
  };
}

/** Hands a downloaded file to the browser's own download. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started reading the blob by the time this runs.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
