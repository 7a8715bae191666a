import type { Selectable } from 'kysely';
import type { User } from '../../../shared/api/users.ts';
import type { UsersTable } from '../schema.ts';
import { bool, type Executor } from './executor.ts';

export type UserRow = Selectable<UsersTable>;

export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    role: row.role,
    disabled: bool(row.disabled),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const usersRepository = {
  async insert(
    db: Executor,
    row: Omit<UserRow, 'disabled'> & { disabled: boolean },
  ): Promise<void> {
    await db.insertInto('users').values(row).execute();
  },

  findById(db: Executor, id: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  },

  findByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  },

  list(db: Executor): Promise<UserRow[]> {
    return db.selectFrom('users').selectAll().orderBy('username').execute();
  },

  async count(db: Executor): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async update(
    db: Executor,
    id: string,
    changes: Partial<{
      display_name: string;
      role: UserRow['role'];
      disabled: boolean;
      password_hash: string;
    }> & { updated_at: string },
  ): Promise<void> {
    await db.updateTable('users').set(changes).where('id', '=', id).execute();
  },
};
