import type { DatabaseHandle } from '../db/database.ts';
import { keptCountsRepository } from '../db/repositories/kept-counts.ts';

/**
 * How often the server folds the kept counts' deltas into their rows. A read adds up the deltas
 * of at most about this long (a few thousand rows at the busiest), and a fold of a second's
 * deltas takes milliseconds.
 */
export const compactionIntervalMillis = 1_000;

/**
 * Folds the kept counts' deltas every interval until stopped; the next fold is timed from the end
 * of the last, so folds never overlap within a server, and across servers the fold's advisory
 * lock lets one at a time through. A failed fold leaves the deltas as they were (it is one
 * transaction) and is reported; the next one tries again.
 */
export function compactKeptCountsPeriodically(
  database: DatabaseHandle,
  onError: (error: unknown) => void,
  intervalMillis = compactionIntervalMillis,
): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(() => {
      running = keptCountsRepository
        .compact(database)
        .catch(onError)
        .then(() => {
          if (!stopped) schedule();
        });
    }, intervalMillis);
    // A pending fold never keeps the process alive.
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
