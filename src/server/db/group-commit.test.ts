import { sql, type Transaction } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

const at = '2026-11-22T09:00:00.000Z';

describe('group commit on SQLite', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(handle);
  });
  afterEach(async () => {
    await handle.close();
  });

  const addUser = (id: string) =>
    handle.transaction(async (trx) => {
      await addUserIn(trx, id);
      return trx;
    });
  const userIds = async () =>
    (await handle.db.selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id);

  it('commits concurrent changes together, each answered with its own result', async () => {
    const transactions = await Promise.all(['u1', 'u2', 'u3', 'u4', 'u5'].map(addUser));
    // The first change starts a commit at once; the four that queue behind it share the next.
    expect(new Set(transactions).size).toBeLessThanOrEqual(2);
    expect(await userIds()).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
  });

  it('commits together the changes that arrive in separate callbacks of one turn', async () => {
    const arrivals = ['u1', 'u2', 'u3', 'u4'].map(
      (id) =>
        new Promise<Transaction<Database>>((resolve, reject) => {
          setImmediate(() => {
            addUser(id).then(resolve, reject);
          });
        }),
    );
    const transactions = await Promise.all(arrivals);
    expect(new Set(transactions).size).toBe(1);
    expect(await userIds()).toEqual(['u1', 'u2', 'u3', 'u4']);
  });

  it('rolls back and rejects a failing change alone', async () => {
    const failing = handle.transaction(async (trx) => {
      await addUserIn(trx, 'half-done');
      throw new Error('refused part-way');
    });
    const results = await Promise.allSettled([addUser('u1'), failing, addUser('u2')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await userIds()).toEqual(['u1', 'u2']);
  });

  it('tells every change of a batch that failed to commit, and stores none of it', async () => {
    await addUser('u0');
    // A deferred foreign key is only checked at commit, so the commit itself fails.
    const brokenAtCommit = () =>
      handle.transaction(async (trx) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx
          .insertInto('sessions')
          .values({ id_hash: 'h', user_id: 'nobody', created_at: at, last_seen_at: at })
          .execute();
      });
    const results = await Promise.allSettled([addUser('u1'), brokenAtCommit(), addUser('u2')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await userIds()).toEqual(['u0']);
    // The queue goes on after a failed commit.
    await addUser('u3');
    expect(await userIds()).toEqual(['u0', 'u3']);
  });

  it('rejects the whole batch with the disk-full error when SQLite rolled it back itself', async () => {
    await addUser('u0');
    // A database that may not grow fails as a full disk does (SQLITE_FULL), and SQLite then rolls
    // the open transaction back on its own.
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(handle.db);
    const pageCount = pages.rows[0]!.page_count;
    await sql.raw(`pragma max_page_count = ${pageCount}`).execute(handle.db);
    const fillsTheDisk = () =>
      handle.transaction(async (trx) => {
        for (let i = 0; i < 200; i += 1) await addUserIn(trx, `bulk-${i}`, 'x'.repeat(2000));
      });
    const results = await Promise.allSettled([addUser('u1'), fillsTheDisk(), addUser('u2')]);
    // u1 shared the failed transaction; u2, still queued, commits in the next one.
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    for (const result of results.slice(0, 2)) {
      expect(result).toMatchObject({
        reason: { errcode: 13, message: 'database or disk is full' },
      });
    }
    expect(await userIds()).toEqual(['u0', 'u2']);

    await sql.raw('pragma max_page_count = 1073741823').execute(handle.db);
    await fillsTheDisk();
    expect(await userIds()).toHaveLength(202);
  });
});

function addUserIn(trx: Transaction<Database>, id: string, displayName = id) {
  return trx
    .insertInto('users')
    .values({
      id,
      username: id,
      display_name: displayName,
      role: 'nurse',
      password_hash: 'x',
      disabled: false,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
