import type { Insertable, Selectable } from 'kysely';
import type { CdsClientsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type CdsClientRow = Selectable<CdsClientsTable>;

export const cdsClientsRepository = {
  findLive(db: Executor, issuer: string): Promise<CdsClientRow | undefined> {
    return db
      .selectFrom('cds_clients')
      .selectAll()
      .where('issuer', '=', issuer)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
  },

  listLive(db: Executor): Promise<CdsClientRow[]> {
    return db
      .selectFrom('cds_clients')
      .selectAll()
      .where('removed_at', 'is', null)
      .orderBy('issuer')
      .execute();
  },

  async insert(db: Executor, row: Insertable<CdsClientsTable>): Promise<void> {
    await db.insertInto('cds_clients').values(row).execute();
  },

  /** Marks a live client removed; returns whether there was one. */
  async remove(db: Executor, issuer: string, at: string, by: string | null): Promise<boolean> {
    const result = await db
      .updateTable('cds_clients')
      .set({ removed_at: at, removed_by: by })
      .where('issuer', '=', issuer)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async isJtiUsed(db: Executor, issuer: string, jti: string): Promise<boolean> {
    const row = await db
      .selectFrom('cds_jtis')
      .select('jti')
      .where('issuer', '=', issuer)
      .where('jti', '=', jti)
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * Records a JWT id as used until it expires; false when it already was (the primary key
   * refuses a second row, whichever transaction came first).
   */
  async useJti(db: Executor, issuer: string, jti: string, expiresAt: string): Promise<boolean> {
    const inserted = await db
      .insertInto('cds_jtis')
      .values({ issuer, jti, expires_at: expiresAt })
      .onConflict((conflict) => conflict.columns(['issuer', 'jti']).doNothing())
      .returning('jti')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  /** Forgets the JWT ids whose tokens have expired: they can no longer be replayed. */
  async pruneJtis(db: Executor, now: string): Promise<void> {
    await db.deleteFrom('cds_jtis').where('expires_at', '<', now).execute();
  },
};
