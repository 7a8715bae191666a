import type { Insertable, Selectable } from 'kysely';
import type { FhirAccessTokensTable, FhirClientsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type FhirClientRow = Selectable<FhirClientsTable>;

export const fhirClientsRepository = {
  findLive(db: Executor, clientId: string): Promise<FhirClientRow | undefined> {
    return db
      .selectFrom('fhir_clients')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
  },

  /** The live clients by client id, with the code of each one's unit. */
  listLive(db: Executor): Promise<Array<FhirClientRow & { unit_code: string }>> {
    return db
      .selectFrom('fhir_clients')
      .innerJoin('org_units', 'org_units.id', 'fhir_clients.org_unit_id')
      .selectAll('fhir_clients')
      .select('org_units.code as unit_code')
      .where('fhir_clients.removed_at', 'is', null)
      .orderBy('fhir_clients.client_id')
      .execute();
  },

  async insert(db: Executor, row: Insertable<FhirClientsTable>): Promise<void> {
    await db.insertInto('fhir_clients').values(row).execute();
  },

  /** Marks a live client removed; returns whether there was one. */
  async remove(db: Executor, clientId: string, at: string, by: string | null): Promise<boolean> {
    const result = await db
      .updateTable('fhir_clients')
      .set({ removed_at: at, removed_by: by })
      .where('client_id', '=', clientId)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /**
   * Records an assertion's id as used until it expires; false when it already was (the primary
   * key refuses a second row, whichever transaction came first).
   */
  async useJti(db: Executor, clientId: string, jti: string, expiresAt: string): Promise<boolean> {
    const inserted = await db
      .insertInto('fhir_client_jtis')
      .values({ client_id: clientId, jti, expires_at: expiresAt })
      .onConflict((conflict) => conflict.columns(['client_id', 'jti']).doNothing())
      .returning('jti')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  /** Forgets assertion ids and access tokens that expired before `before`. */
  async pruneExpired(db: Executor, before: string): Promise<void> {
    await db.deleteFrom('fhir_client_jtis').where('expires_at', '<', before).execute();
    await db.deleteFrom('fhir_access_tokens').where('expires_at', '<', before).execute();
  },

  async insertAccessToken(db: Executor, row: Insertable<FhirAccessTokensTable>): Promise<void> {
    await db.insertInto('fhir_access_tokens').values(row).execute();
  },

  /** The unexpired access token of that hash, with its client and its unit, while the client is live. */
  findLiveAccessToken(
    db: Executor,
    tokenHash: string,
    now: string,
  ): Promise<{ client_id: string; org_unit_id: string; scope: string } | undefined> {
    return db
      .selectFrom('fhir_access_tokens')
      .innerJoin('fhir_clients', 'fhir_clients.id', 'fhir_access_tokens.client_row_id')
      .select(['fhir_clients.client_id', 'fhir_clients.org_unit_id', 'fhir_access_tokens.scope'])
      .where('fhir_access_tokens.token_hash', '=', tokenHash)
      .where('fhir_access_tokens.expires_at', '>', now)
      .where('fhir_clients.removed_at', 'is', null)
      .executeTakeFirst();
  },
};
