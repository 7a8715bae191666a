import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * API tokens an administrator makes for another system to read the FHIR API. Only the SHA-256
 * of a token is kept: a request's token is found by its hash, so the token itself is never
 * stored nor compared. A name is unique among live tokens; a revoked one keeps its row (and its
 * name may be given again) so the audit trail's rows naming it stay explained.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('revoked_at', t.timestamp)
    .addColumn('last_used_at', t.timestamp)
    .execute();
  await sql`create unique index api_tokens_live_name_idx on api_tokens (name)
    where revoked_at is null`.execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
}

export const apiTokens: TriageMigration = { name: '20261125T0610-api-tokens', up, down };
