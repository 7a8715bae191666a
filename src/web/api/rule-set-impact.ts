import {
  impactNdjsonType,
  impactStreamLineSchema,
  type ImpactResult,
} from '../../shared/rule-set-impact.ts';
import { friendlyMessages } from '../../shared/texts.ts';
import { ApiError, responseError } from './client.ts';
import { ndjsonValues } from './ndjson.ts';

/** The assessments' local creation dates to re-score, whole days; an end left out is open. */
export interface ImpactDates {
  from?: string | undefined;
  to?: string | undefined;
}

export interface ImpactProgress {
  done: number;
  total: number;
}

function unexpected(status: number): ApiError {
  return new ApiError(status, 'internal', friendlyMessages.unexpected);
}

/**
 * Re-scores the live assessments of the dates with a version, saving nothing. The server streams
 * its progress as NDJSON, each line passed to `onProgress` as it arrives, and ends with the
 * result, or with an error line when it fails midway. Every failure is thrown as an ApiError;
 * an aborted call rethrows the abort.
 */
export async function runImpactAnalysis(
  version: string,
  dates: ImpactDates,
  onProgress: (progress: ImpactProgress) => void,
  signal?: AbortSignal,
): Promise<ImpactResult> {
  let response: Response;
  try {
    response = await fetch(`/api/rule-sets/${encodeURIComponent(version)}/impact`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: impactNdjsonType, 'content-type': 'application/json' },
      body: JSON.stringify({ from: dates.from, to: dates.to }),
      signal,
    });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ApiError(0, 'network', friendlyMessages.network);
  }
  if (!response.ok) throw await responseError(response);
  if (response.body === null) throw unexpected(response.status);

  try {
    for await (const value of ndjsonValues(response.body)) {
      const line = impactStreamLineSchema.safeParse(value);
      if (!line.success) throw unexpected(response.status);
      if ('progress' in line.data) onProgress(line.data.progress);
      else if ('result' in line.data) return line.data.result;
      else {
        const { code, message, field } = line.data.error;
        // The answer began as a 200: the error line carries no status of its own.
        throw new ApiError(response.status, code, message, field);
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (signal?.aborted === true) throw error;
    // The connection broke midway, or a line was not JSON.
    throw error instanceof SyntaxError
      ? unexpected(response.status)
      : new ApiError(0, 'network', friendlyMessages.network);
  }
  // The stream ended without its result line.
  throw unexpected(response.status);
}
