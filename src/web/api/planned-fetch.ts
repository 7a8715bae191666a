/** Test helpers for the API client: fetch answered as a test plans it. */
import { vi } from 'vitest';
import { ApiError } from './client.ts';

/** A JSON response, or an empty one when there is no body. */
export function answer(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Answers the requests in turn, with a response or a network failure each. A request beyond the
 * planned ones gets a 500, so that a call the code should not have made shows up as a different
 * error as well as in the request count.
 */
export function planFetch(...answers: Array<Response | Error>) {
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) => {
    const next =
      answers.shift() ??
      answer(500, { error: { code: 'internal', message: 'Request not planned by the test.' } });
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The ApiError a call fails with; throws when it succeeds or fails otherwise. */
export async function failureOf(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error('expected an ApiError');
  return error;
}
