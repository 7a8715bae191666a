import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * The record systems allowed to call the CDS Hooks service (issue 20), each known by the `iss`
 * of its JWTs and checked against its JWK Set: stored here (`jwks`) or read from its URL
 * (`jwks_url`), exactly one of them. A removed client keeps its row (`removed_at`) so the audit
 * trail's rows naming it stay explained; an issuer is unique among live clients.
 *
 * `cds_jtis` keeps each accepted JWT's `jti` until the token expires, so a replayed token is
 * refused; rows past their expiry are pruned as calls arrive.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('cds_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('jwks', 'text')
    .addColumn('jwks_url', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('removed_at', t.timestamp)
    .addColumn('removed_by', 'text')
    .addCheckConstraint('cds_clients_one_key_source', sql`(jwks is null) <> (jwks_url is null)`)
    .execute();
  await sql`create unique index cds_clients_live_issuer_idx on cds_clients (issuer)
    where removed_at is null`.execute(db);
  await db.schema
    .createTable('cds_jtis')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('jti', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('cds_jtis_pk', ['issuer', 'jti'])
    .execute();
  await db.schema.createIndex('cds_jtis_expiry_idx').on('cds_jtis').column('expires_at').execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cds_jtis').execute();
  await db.schema.dropTable('cds_clients').execute();
}

export const cdsClients: TriageMigration = { name: '20261125T0600-cds-clients', up, down };
