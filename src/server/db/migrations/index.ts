import type { TriageMigration } from './types.ts';
import { initial } from './20261122T0400-initial.ts';
import { historySearch } from './20261122T0900-history-search.ts';

/** Every migration in the order it runs; a new one is appended with a later timestamp. */
export const migrations: readonly TriageMigration[] = [initial, historySearch];
