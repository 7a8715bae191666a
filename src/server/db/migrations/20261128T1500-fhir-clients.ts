import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * SMART Backend Services (issue 38): the systems allowed to read the FHIR API with OAuth client
 * credentials. `fhir_clients` holds each client, known by its `client_id` (the `iss` and `sub` of
 * its assertions), its JWK Set stored (`jwks`) or read from a URL (`jwks_url`), exactly one, and
 * the scopes it may be granted (space-separated, as OAuth writes them). A removed client keeps
 * its row so the audit trail's rows naming it stay explained.
 *
 * `fhir_client_jtis` keeps each accepted assertion's `jti` until the assertion expires, so a
 * replayed one is refused. `fhir_access_tokens` holds the SHA-256 of each access token issued
 * (never the token), the client row it was issued to and the scope granted, until it expires.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('fhir_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('jwks', 'text')
    .addColumn('jwks_url', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('removed_at', t.timestamp)
    .addColumn('removed_by', 'text')
    .addCheckConstraint('fhir_clients_one_key_source', sql`(jwks is null) <> (jwks_url is null)`)
    .execute();
  await sql`create unique index fhir_clients_live_client_id_idx on fhir_clients (client_id)
    where removed_at is null`.execute(db);
  await db.schema
    .createTable('fhir_client_jtis')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('jti', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('fhir_client_jtis_pk', ['client_id', 'jti'])
    .execute();
  await db.schema
    .createIndex('fhir_client_jtis_expiry_idx')
    .on('fhir_client_jtis')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('fhir_access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_row_id', 'text', (c) => c.notNull().references('fhir_clients.id'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fhir_access_tokens_expiry_idx')
    .on('fhir_access_tokens')
    .column('expires_at')
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fhir_access_tokens').execute();
  await db.schema.dropTable('fhir_client_jtis').execute();
  await db.schema.dropTable('fhir_clients').execute();
}

export const fhirClients: TriageMigration = { name: '20261128T1500-fhir-clients', up, down };
