import { assessmentReportSchema, type AssessmentReport } from '../../shared/api/exports.ts';
import { friendlyMessages } from '../../shared/texts.ts';
import { ApiError, apiRequest, responseError } from './client.ts';

function reportPath(assessmentId: string): string {
  return `/api/assessments/${encodeURIComponent(assessmentId)}/report`;
}

/** The comprehensive report of one assessment as sections, for the printable page. */
export function getReport(assessmentId: string, signal?: AbortSignal): Promise<AssessmentReport> {
  return apiRequest(reportPath(assessmentId), { schema: assessmentReportSchema, signal });
}

/**
 * The file name a Content-Disposition header gives, preferring the RFC 5987 `filename*` form.
 * Any folder part is dropped so that a name can never point outside the downloads folder.
 */
export function attachmentFileName(contentDisposition: string | null, fallback: string): string {
  if (contentDisposition === null) return fallback;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*(?:[\w!#$%&+^`{}~-]+)'[^']*'([^;]+)/i.exec(contentDisposition);
  if (extended?.[1] !== undefined) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed percent-encoding: the plain filename (or the fallback) serves instead.
    }
  }
  if (name === undefined) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(contentDisposition);
    name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
  }
  const baseName = name?.split(/[/\\]/).pop()?.trim();
  return baseName === undefined || baseName === '' || /^\.+$/.test(baseName) ? fallback : baseName;
}

/** Hands a file made in the browser (or fetched) to the downloads under the given name. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking in the same task can cancel the download before the browser has read the blob.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Fetches a file the server offers as an attachment and hands it to the browser's downloads
 * under the server's file name. Fails with an ApiError, as API calls do.
 */
export async function downloadAttachment(path: string, fallbackName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', friendlyMessages.network);
  }
  if (!response.ok) throw await responseError(response);
  const fileName = attachmentFileName(response.headers.get('content-disposition'), fallbackName);
  saveBlob(await response.blob(), fileName);
}

/** Downloads the report as text: comprehensive-assessment-{code or id}-{date}.txt. */
export function downloadReportText(assessmentId: string): Promise<void> {
  return downloadAttachment(
    `${reportPath(assessmentId)}.txt`,
    `comprehensive-assessment-${assessmentId}.txt`,
  );
}
