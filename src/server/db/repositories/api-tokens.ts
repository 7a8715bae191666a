import type { Insertable, Selectable } from 'kysely';
import type { ApiTokensTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type ApiTokenRow = Selectable<ApiTokensTable>;

export const apiTokensRepository = {
  async insert(db: Executor, row: Insertable<ApiTokensTable>): Promise<void> {
    await db.insertInto('api_tokens').values(row).execute();
  },

  findLiveByName(db: Executor, name: string): Promise<ApiTokenRow | undefined> {
    return db
      .selectFrom('api_tokens')
      .selectAll()
      .where('name', '=', name)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  /** The live token with this hash: found through the unique index, never by comparing tokens. */
  findLiveByHash(db: Executor, tokenHash: string): Promise<ApiTokenRow | undefined> {
    return db
      .selectFrom('api_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  /** Every token, live and revoked, oldest first, with the code of its unit. */
  list(db: Executor): Promise<Array<ApiTokenRow & { unit_code: string }>> {
    return db
      .selectFrom('api_tokens')
      .innerJoin('org_units', 'org_units.id', 'api_tokens.org_unit_id')
      .selectAll('api_tokens')
      .select('org_units.code as unit_code')
      .orderBy('api_tokens.created_at')
      .orderBy('api_tokens.id')
      .execute();
  },

  /** Revokes the live token of this name; returns whether there was one. */
  async revoke(db: Executor, name: string, at: string): Promise<boolean> {
    const result = await db
      .updateTable('api_tokens')
      .set({ revoked_at: at })
      .where('name', '=', name)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async markUsed(db: Executor, id: string, at: string): Promise<void> {
    await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  },
};
