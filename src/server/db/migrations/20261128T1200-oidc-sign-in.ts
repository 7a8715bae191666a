import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * Sign-in through the organisation's OpenID Connect provider (issue 37):
 * - `users.oidc_subject`: the provider's `sub` for the account, its only link to the provider
 *   (never the email); unique, null for an account that signs in with a password alone;
 * - `users.break_glass`: an account whose password still signs in when LOCAL_SIGN_IN is false;
 * - `sessions.id_token`: the ID token a provider sign-in ended with, kept for the provider's
 *   sign-out (`id_token_hint`); null for a password sign-in;
 * - `second_factor_challenges.id_token`: the same, for a provider's sign-in awaiting the local
 *   second step;
 * - `oidc_sign_ins`: a sign-in sent to the provider and not yet back, keyed by the SHA-256 of the
 *   browser's cookie: its state, nonce and PKCE verifier, deleted when the browser returns, so
 *   that each works once.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema.alterTable('users').addColumn('oidc_subject', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('break_glass', t.bool, (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex('users_oidc_subject_idx')
    .unique()
    .on('users')
    .column('oidc_subject')
    .execute();
  await db.schema.alterTable('sessions').addColumn('id_token', 'text').execute();
  await db.schema.alterTable('second_factor_challenges').addColumn('id_token', 'text').execute();
  await db.schema
    .createTable('oidc_sign_ins')
    .addColumn('binding_hash', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_sign_ins').execute();
  await db.schema.alterTable('second_factor_challenges').dropColumn('id_token').execute();
  await db.schema.alterTable('sessions').dropColumn('id_token').execute();
  await db.schema.dropIndex('users_oidc_subject_idx').execute();
  await db.schema.alterTable('users').dropColumn('break_glass').execute();
  await db.schema.alterTable('users').dropColumn('oidc_subject').execute();
}

export const oidcSignIn: TriageMigration = { name: '20261128T1200-oidc-sign-in', up, down };
