import { describe, expect, it } from 'vitest';
import { ApiError } from './api/client.ts';
import { isWorthRetrying, makeQueryClient } from './queryClient.ts';

describe('server state in the browser', () => {
  it('tries again after a network or server failure, never after a refusal', () => {
    expect(isWorthRetrying(new ApiError(0, 'network', 'offline'))).toBe(true);
    expect(isWorthRetrying(new ApiError(503, 'database_unavailable', 'down'))).toBe(true);
    expect(isWorthRetrying(new ApiError(400, 'validation_failed', 'bad'))).toBe(false);
    expect(isWorthRetrying(new ApiError(401, 'unauthenticated', 'signed out'))).toBe(false);
    expect(isWorthRetrying(new Error('a bug'))).toBe(false);
  });

  it('tries a retryable failure once more, and only once', () => {
    const retry = makeQueryClient().getDefaultOptions().queries?.retry;
    if (typeof retry !== 'function') throw new Error('retry is not a rule');
    const failure = new ApiError(0, 'network', 'offline');
    expect(retry(0, failure)).toBe(true);
    expect(retry(1, failure)).toBe(false);
  });
});
