import type { Selectable } from 'kysely';
import type { SessionsTable, UsersTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type SessionWithUser = Selectable<SessionsTable> &
  Pick<Selectable<UsersTable>, 'username' | 'display_name' | 'role' | 'disabled'>;

export const sessionsRepository = {
  async insert(db: Executor, row: Selectable<SessionsTable>): Promise<void> {
    await db.insertInto('sessions').values(row).execute();
  },

  findWithUser(db: Executor, idHash: string): Promise<SessionWithUser | undefined> {
    return db
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

export const loginFailuresRepository = {
  async insert(db: Executor, username: string, address: string, at: string): Promise<void> {
    await db.insertInto('login_failures').values({ username, address, at }).execute();
  },

  async countSince(
    db: Executor,
    by: { username: string } | { address: string },
    since: string,
  ): Promise<number> {
    let query = db
      .selectFrom('login_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('at', '>', since);
    query =
      'username' in by
        ? query.where('username', '=', by.username)
        : query.where('address', '=', by.address);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async clearForUsername(db: Executor, username: string): Promise<void> {
    await db.deleteFrom('login_failures').where('username', '=', username).execute();
  },
};
