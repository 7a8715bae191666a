import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * Launches from a record system as a SMART app (issue 39): `smart_launches`, one row a launch,
 * keyed by its id and found at the return from the record's authorization server by the state it
 * sent there (`state_key`). `binding_hash` is the SHA-256 of the launching browser's own cookie,
 * so that only that browser continues the launch; `client_state` holds the SMART client's state
 * (the PKCE verifier, then the token response), kept on the server so the browser never holds
 * the record's token. `user_id` is the user who took the launch up after signing in; `record`
 * what the record told, read once; `written_back_*` the assessment sent back into the record.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('smart_launches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('binding_hash', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('state_key', 'text', (c) => c.notNull().unique())
    .addColumn('client_state', 'text', (c) => c.notNull())
    .addColumn('patient_fhir_id', 'text')
    .addColumn('app_context', 'text')
    .addColumn('user_id', 'text', (c) => c.references('users.id'))
    .addColumn('patient_record_id', 'text', (c) => c.references('patient_records.id'))
    .addColumn('record', 'text')
    .addColumn('written_back_assessment_id', 'text')
    .addColumn('written_back_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('smart_launches_binding_idx')
    .on('smart_launches')
    .column('binding_hash')
    .execute();
  await db.schema
    .createIndex('smart_launches_created_idx')
    .on('smart_launches')
    .column('created_at')
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('smart_launches').execute();
}

export const smartLaunches: TriageMigration = { name: '20261129T0100-smart-launches', up, down };
