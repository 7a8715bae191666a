import type { Insertable, Selectable, Updateable } from 'kysely';
import type { SmartLaunchesTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type SmartLaunchRow = Selectable<SmartLaunchesTable>;

export const smartLaunchesRepository = {
  /** Keeps a launch sent to the record's authorization server; drops those begun before `staleBefore`. */
  async insert(
    db: Executor,
    row: Insertable<SmartLaunchesTable>,
    staleBefore: string,
  ): Promise<void> {
    await db.deleteFrom('smart_launches').where('created_at', '<', staleBefore).execute();
    await db.insertInto('smart_launches').values(row).execute();
  },

  async findByStateKey(db: Executor, stateKey: string): Promise<SmartLaunchRow | undefined> {
    return db
      .selectFrom('smart_launches')
      .selectAll()
      .where('state_key', '=', stateKey)
      .executeTakeFirst();
  },

  async findById(db: Executor, id: string): Promise<SmartLaunchRow | undefined> {
    return db.selectFrom('smart_launches').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The issuer of a live launch of the browser whose cookie hashes to `bindingHash`. */
  async issuerOfBinding(
    db: Executor,
    bindingHash: string,
    createdAfter: string,
  ): Promise<string | undefined> {
    const row = await db
      .selectFrom('smart_launches')
      .select('issuer')
      .where('binding_hash', '=', bindingHash)
      .where('created_at', '>=', createdAfter)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.issuer;
  },

  async update(db: Executor, id: string, changes: Updateable<SmartLaunchesTable>): Promise<void> {
    await db.updateTable('smart_launches').set(changes).where('id', '=', id).execute();
  },

  /**
   * Gives the launch to a user: only while nobody has it, or to the user who has it already, so
   * that of two users in one browser only the first continues it. Whether it is theirs now.
   */
  async claim(db: Executor, id: string, userId: string): Promise<boolean> {
    await db
      .updateTable('smart_launches')
      .set({ user_id: userId })
      .where('id', '=', id)
      .where('user_id', 'is', null)
      .execute();
    const row = await db
      .selectFrom('smart_launches')
      .select('user_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.user_id === userId;
  },
};
