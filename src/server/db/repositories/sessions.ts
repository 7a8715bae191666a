import { sql, type Insertable, type Selectable } from 'kysely';
import type { SessionsTable, UsersTable } from '../schema.ts';
import { readBooleans, type Executor, type WithBooleans } from './executor.ts';

export type SessionWithUser = Omit<Selectable<SessionsTable>, 'id_token'> &
  WithBooleans<Pick<Selectable<UsersTable>, 'username' | 'display_name' | 'role' | 'disabled'>>;

export const sessionsRepository = {
  async insert(db: Executor, row: Insertable<SessionsTable>): Promise<void> {
    await db.insertInto('sessions').values(row).execute();
  },

  async findWithUser(db: Executor, idHash: string): Promise<SessionWithUser | undefined> {
    const row = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id_hash',
        'sessions.user_id',
        'sessions.created_at',
        'sessions.last_seen_at',
        'sessions.ended_at',
        'users.username',
        'users.display_name',
        'users.role',
        'users.disabled',
      ])
      .where('sessions.id_hash', '=', idHash)
      .executeTakeFirst();
    return row === undefined ? undefined : readBooleans(row, ['disabled']);
  },

  /** The ID token kept with a provider's sign-in, for the provider's sign-out; else null. */
  async idToken(db: Executor, idHash: string): Promise<string | null> {
    const row = await db
      .selectFrom('sessions')
      .select('id_token')
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return row?.id_token ?? null;
  },

  async touch(db: Executor, idHash: string, at: string): Promise<void> {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: at })
      .where('id_hash', '=', idHash)
      .execute();
  },

  async end(db: Executor, idHash: string, at: string): Promise<void> {
    await db
      .updateTable('sessions')
      .set({ ended_at: at })
      .where('id_hash', '=', idHash)
      .where('ended_at', 'is', null)
      .execute();
  },

  async endAllForUser(db: Executor, userId: string, at: string): Promise<void> {
    await db
      .updateTable('sessions')
      .set({ ended_at: at })
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .execute();
  },
};

export const loginThrottleRepository = {
  /**
   * Adds one to a key's counter and returns the new count, in one statement: parallel callers
   * each get a count of their own. A counter whose window began at or before `windowStartedBy`
   * starts again at 1 in a window beginning now.
   */
  async increment(
    db: Executor,
    key: string,
    now: string,
    windowStartedBy: string,
  ): Promise<number> {
    const expired = sql<boolean>`login_throttle.window_start <= ${windowStartedBy}`;
    const row = await db
      .insertInto('login_throttle')
      .values({ key, window_start: now, count: 1 })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          count: sql<number>`case when ${expired} then 1 else login_throttle.count + 1 end`,
          window_start: sql<string>`case when ${expired} then ${now} else login_throttle.window_start end`,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  /** A key's count within a window that began after `windowStartedBy`; 0 when none. */
  async current(db: Executor, key: string, windowStartedBy: string): Promise<number> {
    const row = await db
      .selectFrom('login_throttle')
      .select('count')
      .where('key', '=', key)
      .where('window_start', '>', windowStartedBy)
      .executeTakeFirst();
    return row === undefined ? 0 : Number(row.count);
  },

  /** Takes one attempt back (it turned out not to be a failure). */
  async decrement(db: Executor, key: string): Promise<void> {
    await db
      .updateTable('login_throttle')
      .set({ count: sql<number>`count - 1` })
      .where('key', '=', key)
      .where('count', '>', 0)
      .execute();
  },

  async clear(db: Executor, keys: string[]): Promise<void> {
    await db.deleteFrom('login_throttle').where('key', 'in', keys).execute();
  },
};
