import { sql, type ControlledTransaction, type Kysely, type Transaction } from 'kysely';
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
 *
 * Some failures (a full disk, an I/O error) make SQLite roll the whole transaction back by itself:
 * `inTransaction` tells when it has, and then every change of the batch is rejected with that
 * failure, since none of them was stored.
 */
export function groupCommit(
  db: Kysely<Database>,
  inTransaction: () => boolean,
  /** Hears how many changes each commit stored. */
  onCommitted: (changes: number) => void = () => undefined,
  /** Runs before each commit, holding the write lock; what it throws rolls the batch back. */
  beforeCommit: () => void = () => undefined,
) {
  const queue: QueuedWork[] = [];
  let draining = false;

  async function commitBatch(): Promise<void> {
    const batch: Array<{ item: QueuedWork; value: unknown }> = [];
    let current: QueuedWork | undefined;
    let trx: ControlledTransaction<Database>;
    try {
      trx = await db.startTransaction().execute();
    } catch (error) {
      // Not even begun: the first queued change hears why, the others wait for the next batch.
      queue.shift()?.reject(error);
      return;
    }
    try {
      while (batch.length < maxChangesPerCommit) {
        const item = queue.shift();
        if (item === undefined) break;
        current = item;
        await sql`savepoint change`.execute(trx);
        let value: unknown;
        try {
          value = await item.work(trx);
        } catch (error) {
          // SQLite gave up the whole transaction: the batch is gone, not just this change.
          if (!inTransaction()) throw error;
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
      beforeCommit();
      await trx.commit().execute();
    } catch (error) {
      // The transaction could not go on or commit: nothing of the batch was stored.
      let failure = error;
      try {
        // Also gives the connection back, which a failed commit keeps.
        await trx.rollback().execute();
      } catch (rollbackError) {
        // Without a transaction SQLite had already rolled back, and the failure that made it do
        // so is the one to report; a rollback of an open transaction that fails is reported.
        if (inTransaction()) failure = rollbackError;
      }
      current?.reject(failure);
      for (const { item } of batch) item.reject(failure);
      return;
    }
    onCommitted(batch.length);
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
