import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

export type TransactionWork<T> = (trx: Transaction<Database>) => Promise<T>;

interface QueuedWork {
  work: TransactionWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Bounds how long the first change of a batch waits for the batch's commit. */
const maxChangesPerCommit = 64;

/**
 * Group commit for SQLite. SQLite writes one transaction at a time on its one connection, and
 * each commit waits for the disk; under many concurrent saves that wait, not the work, set the
 * pace. Here the changes that queue up while a commit is under way go into the next transaction
 * together, each inside a savepoint of its own: a change that fails is rolled back to its
 * savepoint and rejected alone, the others commit with one wait for the disk, and no caller hears
 * of success before its change is durable. A change sees the committed-to-be changes queued before
 * it, exactly as it would had they committed first.
 */
export function groupCommit(db: Kysely<Database>) {
  const queue: QueuedWork[] = [];
  let draining = false;

  async function commitBatch(): Promise<void> {
    const batch: Array<{ item: QueuedWork; value: unknown }> = [];
    let current: QueuedWork | undefined;
    try {
      await db.transaction().execute(async (trx) => {
        while (batch.length < maxChangesPerCommit) {
          const item = queue.shift();
          if (item === undefined) break;
          current = item;
          await sql`savepoint change`.execute(trx);
          let value: unknown;
          try {
            value = await item.work(trx);
          } catch (error) {
            await sql`rollback to change`.execute(trx);
            await sql`release change`.execute(trx);
            current = undefined;
            item.reject(error);
            continue;
          }
          await sql`release change`.execute(trx);
          current = undefined;
          batch.push({ item, value });
        }
      });
    } catch (error) {
      // The transaction could not go on or commit: nothing of the batch was stored.
      current?.reject(error);
      for (const { item } of batch) item.reject(error);
      return;
    }
    for (const { item, value } of batch) item.resolve(value);
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) await commitBatch();
    } finally {
      draining = false;
    }
  }

  return function transaction<T>(work: TransactionWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!draining) {
        draining = true;
        // Requests are handled one I/O callback at a time, each running to its commit before the
        // next begins; starting the batch on the next turn of the event loop lets the requests
        // that arrived together join it.
        setImmediate(() => void drain());
      }
    });
  };
}
