import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * The CDS Hooks edges (issue 33):
 * - `cds_client_fhir_servers`: the FHIR servers each client may name as a call's `fhirServer`
 *   (scheme, host, port and a path prefix). A client registered before has none, so a call of
 *   its that names a `fhirServer` is refused until one is registered.
 * - `audit_events.detail`: what a row cannot say in its other columns and is no patient data:
 *   the issuer a refused token claimed (never its user name), what a failed FHIR read met, the
 *   count of failures not written one by one.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('cds_client_fhir_servers')
    .addColumn('client_id', 'text', (c) => c.notNull().references('cds_clients.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('cds_client_fhir_servers_pk', ['client_id', 'url'])
    .execute();
  await db.schema.alterTable('audit_events').addColumn('detail', 'text').execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_events').dropColumn('detail').execute();
  await db.schema.dropTable('cds_client_fhir_servers').execute();
}

export const cdsFhirServers: TriageMigration = {
  name: '20261128T0100-cds-fhir-servers',
  up,
  down,
};
