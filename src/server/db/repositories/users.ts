import type { Selectable } from 'kysely';
import type { OrgUnitReference } from '../../../shared/api/org-units.ts';
import type { User } from '../../../shared/api/users.ts';
import type { DatabaseEngine } from '../database.ts';
import type { UsersTable } from '../schema.ts';
import { readBooleans, type Executor, type WithBooleans } from './executor.ts';

export type UserRow = WithBooleans<Selectable<UsersTable>>;

/** A user as the API shows it, with the units they work in (by code). */
export function presentUser(row: UserRow, units: readonly OrgUnitReference[]): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    role: row.role,
    disabled: row.disabled,
    units: units.map(({ id, code, name }) => ({ id, code, name })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const usersRepository = {
  async insert(
    db: Executor,
    row: Omit<
      UserRow,
      'disabled' | 'second_factor_required_since' | 'oidc_subject' | 'break_glass'
    > & { disabled: boolean; oidc_subject?: string | null; break_glass?: boolean },
  ): Promise<void> {
    const { oidc_subject, break_glass, ...rest } = row;
    // Only when given: an account without them is written as before the columns existed.
    await db
      .insertInto('users')
      .values({
        ...rest,
        ...(oidc_subject == null ? {} : { oidc_subject }),
        ...(break_glass === true ? { break_glass } : {}),
      })
      .execute();
  },

  async findById(db: Executor, id: string): Promise<UserRow | undefined> {
    const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : readBooleans(row, ['disabled', 'break_glass']);
  },

  async findByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
    const row = await db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst();
    return row === undefined ? undefined : readBooleans(row, ['disabled', 'break_glass']);
  },

  async findByOidcSubject(db: Executor, subject: string): Promise<UserRow | undefined> {
    const row = await db
      .selectFrom('users')
      .selectAll()
      .where('oidc_subject', '=', subject)
      .executeTakeFirst();
    return row === undefined ? undefined : readBooleans(row, ['disabled', 'break_glass']);
  },

  async list(db: Executor): Promise<UserRow[]> {
    const rows = await db.selectFrom('users').selectAll().orderBy('username').execute();
    return rows.map((row) => readBooleans(row, ['disabled', 'break_glass']));
  },

  /**
   * The ids of the enabled administrators. On PostgreSQL their rows stay locked until the
   * transaction ends, so that two administrators disabled at once cannot both see the other as
   * the one left (SQLite runs one writer at a time).
   */
  async activeAdminIds(db: Executor, engine: DatabaseEngine): Promise<string[]> {
    const query = db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .where('disabled', '=', false);
    const rows = await (engine === 'postgres' ? query.forUpdate() : query).execute();
    return rows.map((row) => row.id);
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
      second_factor_required_since: null;
    }> & { updated_at: string },
  ): Promise<void> {
    await db.updateTable('users').set(changes).where('id', '=', id).execute();
  },

  /**
   * Starts the grace of a required second factor unless it has begun; answers when it began and
   * whether this call began it (of two sign-ins at once, one does, and both read its time).
   */
  async startSecondFactorGrace(
    db: Executor,
    id: string,
    at: string,
  ): Promise<{ since: string; started: boolean }> {
    const result = await db
      .updateTable('users')
      .set({ second_factor_required_since: at })
      .where('id', '=', id)
      .where('second_factor_required_since', 'is', null)
      .executeTakeFirst();
    const row = await db
      .selectFrom('users')
      .select('second_factor_required_since')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { since: row.second_factor_required_since ?? at, started: result.numUpdatedRows > 0n };
  },

  /** Ends the grace: the user confirmed a factor. */
  async clearSecondFactorGrace(db: Executor, id: string): Promise<void> {
    await db
      .updateTable('users')
      .set({ second_factor_required_since: null })
      .where('id', '=', id)
      .execute();
  },
};
