import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/client.ts';

/** Whether trying again could help: a failed network or a server error, not a refusal. */
export function isWorthRetrying(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

/**
 * Server state in the browser (TanStack Query): answers cached per key, a network or server
 * failure tried once more after a second, and queries paused while the browser is offline
 * (resumed by themselves when it is back). A change is sent at once even offline, so that it
 * fails and says so rather than waiting unseen (saves wait in the outbox, not here).
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 1 && isWorthRetrying(error),
        retryDelay: 1000,
        refetchOnWindowFocus: false,
      },
      mutations: { networkMode: 'always' },
    },
  });
}
