import {
  smartLaunchSchema,
  smartWriteBackResultSchema,
  type SmartLaunch,
  type SmartWriteBackBody,
  type SmartWriteBackResult,
} from '../../shared/api/smart-launch.ts';
import { apiRequest } from './client.ts';

function launchPath(id: string): string {
  return `/api/smart/launches/${encodeURIComponent(id)}`;
}

/**
 * A launch of this browser from a record system: what the record says for the wizard. 404 when
 * the launch is unknown, expired, or another browser's or user's.
 */
export function getSmartLaunch(id: string, signal?: AbortSignal): Promise<SmartLaunch> {
  return apiRequest(launchPath(id), { schema: smartLaunchSchema, signal });
}

/**
 * Sends a saved assessment into the launch's record. The server makes no second copy, so a retry
 * is safe; a record system that does not take it answers 502 (`record_write_failed`) with a
 * sentence to show.
 */
export function writeBackToRecord(
  launchId: string,
  assessmentId: string,
): Promise<SmartWriteBackResult> {
  const body: SmartWriteBackBody = { assessmentId };
  return apiRequest(`${launchPath(launchId)}/write-back`, {
    method: 'POST',
    body,
    schema: smartWriteBackResultSchema,
  });
}
