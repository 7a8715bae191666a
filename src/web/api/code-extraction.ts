import { z } from 'zod';
import {
  extractionProgressSchema,
  extractionResultSchema,
  type ExtractionResult,
} from '../../shared/api/code-extraction.ts';
import { friendlyMessages } from '../../shared/texts.ts';
import { ApiError, responseError } from './client.ts';
import { downloadAttachment } from './reports.ts';

export interface ExtractionProgress {
  scanned: number;
  total: number;
}

const extractionLineSchema = z.discriminatedUnion('type', [
  extractionProgressSchema,
  z.object({ type: z.literal('result'), result: extractionResultSchema }),
  z.object({ type: z.literal('error') }),
]);
export type ExtractionLine = z.infer<typeof extractionLineSchema>;

/**
 * Cuts streamed text into complete NDJSON lines. `pending` is the unfinished last line of the
 * text so far; it comes back as `rest`, to be passed in with the next chunk. Blank lines are
 * skipped.
 */
export function splitLines(pending: string, chunk: string): { lines: string[]; rest: string } {
  const parts = (pending + chunk).split(/\r?\n/);
  const rest = parts.pop() ?? '';
  return { lines: parts.filter((line) => line.trim() !== ''), rest };
}

/** One line of the stream; a line that is not one of the three kinds is a failed extraction. */
export function parseExtractionLine(line: string): ExtractionLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ApiError(200, 'internal', friendlyMessages.unexpected);
  }
  const parsed = extractionLineSchema.safeParse(value);
  if (!parsed.success) throw new ApiError(200, 'internal', friendlyMessages.unexpected);
  return parsed.data;
}

/** What a finished stream amounts to: its result, or a failure when the server gave none. */
function outcomeOf(line: ExtractionLine, onProgress: (progress: ExtractionProgress) => void) {
  switch (line.type) {
    case 'progress':
      onProgress({ scanned: line.scanned, total: line.total });
      return undefined;
    case 'result':
      return line.result;
    case 'error':
      throw new ApiError(200, 'internal', friendlyMessages.unexpected);
  }
}

/**
 * Scans every note for codes, reporting progress from the server's NDJSON stream as it comes.
 * Fails with an ApiError when the call fails, the server reports an error or the stream ends
 * without a result.
 */
export async function extractCodes(
  onProgress: (progress: ExtractionProgress) => void,
  signal?: AbortSignal,
): Promise<ExtractionResult> {
  let response: Response;
  try {
    response = await fetch('/api/code-extraction', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/x-ndjson' },
      signal,
    });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ApiError(0, 'network', friendlyMessages.network);
  }
  if (!response.ok) throw await responseError(response);
  if (response.body === null) throw new ApiError(200, 'internal', friendlyMessages.unexpected);

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    const { lines, rest } = splitLines(
      pending,
      done ? decoder.decode() : decoder.decode(value, { stream: true }),
    );
    // The last line may end the stream without a newline.
    if (done && rest.trim() !== '') lines.push(rest);
    pending = rest;
    for (const line of lines) {
      const result = outcomeOf(parseExtractionLine(line), onProgress);
      if (result !== undefined) {
        await reader.cancel();
        return result;
      }
    }
    if (done) throw new ApiError(200, 'internal', friendlyMessages.unexpected);
  }
}

export function downloadExtractionReport(): Promise<void> {
  return downloadAttachment('/api/code-extraction/report.txt', 'code-extraction-report.txt');
}

export function downloadExtractionCsv(): Promise<void> {
  return downloadAttachment('/api/code-extraction/matches.csv', 'code-extraction.csv');
}
