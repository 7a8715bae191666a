import {
  followUpListSchema,
  reviewWorklistSchema,
  type FollowUpList,
  type ReviewWorklist,
} from '../../shared/api/worklists.ts';
import { apiRequest } from './client.ts';

export interface WorklistPageOptions {
  /** How many items a page holds (the server's default is 20, at most 100). */
  limit?: number;
  /** The page after the one that answered this cursor. */
  cursor?: string | undefined;
  signal?: AbortSignal;
}

/** Signed-off assessments awaiting a finalized doctor review, most urgent first. */
export function awaitingReview({
  limit,
  cursor,
  signal,
}: WorklistPageOptions = {}): Promise<ReviewWorklist> {
  return apiRequest('/api/worklists/review', {
    query: { limit, cursor },
    schema: reviewWorklistSchema,
    signal,
  });
}

/** Patients due for follow-up, the earliest due first. */
export function followUpDue({
  limit,
  cursor,
  signal,
}: WorklistPageOptions = {}): Promise<FollowUpList> {
  return apiRequest('/api/worklists/follow-up', {
    query: { limit, cursor },
    schema: followUpListSchema,
    signal,
  });
}
