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

  /** The live clients by issuer, with the code of each one's unit. */
  listLive(db: Executor): Promise<Array<CdsClientRow & { unit_code: string }>> {
    return db
      .selectFrom('cds_clients')
      .innerJoin('org_units', 'org_units.id', 'cds_clients.org_unit_id')
      .selectAll('cds_clients')
      .select('org_units.code as unit_code')
      .where('cds_clients.removed_at', 'is', null)
      .orderBy('cds_clients.issuer')
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

  async insertFhirServers(
    db: Executor,
    clientId: string,
    urls: readonly string[],
    at: string,
  ): Promise<void> {
    if (urls.length === 0) return;
    await db
      .insertInto('cds_client_fhir_servers')
      .values(urls.map((url) => ({ client_id: clientId, url, created_at: at })))
      .execute();
  },

  /** The FHIR servers registered with each of the clients, by client id. */
  async fhirServersOf(db: Executor, clientIds: readonly string[]): Promise<Map<string, string[]>> {
    const servers = new Map<string, string[]>(clientIds.map((id) => [id, []]));
    if (clientIds.length === 0) return servers;
    const rows = await db
      .selectFrom('cds_client_fhir_servers')
      .select(['client_id', 'url'])
      .where('client_id', 'in', clientIds)
      .orderBy('client_id')
      .orderBy('url')
      .execute();
    for (const row of rows) servers.get(row.client_id)?.push(row.url);
    return servers;
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

  /**
   * Forgets the JWT ids of tokens no call can use any more: expired before `before` (the present
   * less the clock skew a token's `exp` is allowed).
   */
  async pruneJtis(db: Executor, before: string): Promise<void> {
    await db.deleteFrom('cds_jtis').where('expires_at', '<', before).execute();
  },
};
