import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * A second factor at sign-in (TOTP, RFC 6238), which any user may enrol:
 * - `user_second_factors`: a user's TOTP secret, confirmed once a code from it was given back, and
 *   the last time step a code was accepted for, so that no code is accepted twice;
 * - `second_factor_recovery_codes`: ten single-use codes per confirmed factor, only their SHA-256;
 * - `second_factor_challenges`: a sign-in whose password was right, waiting for its second step
 *   (only the SHA-256 of the id its cookie carries); it grants nothing until then.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('user_second_factors')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('confirmed_at', t.timestamp)
    .addColumn('last_time_step', 'bigint')
    .execute();
  await db.schema
    .createTable('second_factor_recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('used_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('second_factor_recovery_codes_user_idx')
    .on('second_factor_recovery_codes')
    .column('user_id')
    .execute();
  await db.schema
    .createTable('second_factor_challenges')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('second_factor_challenges_user_idx')
    .on('second_factor_challenges')
    .column('user_id')
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('second_factor_challenges').execute();
  await db.schema.dropTable('second_factor_recovery_codes').execute();
  await db.schema.dropTable('user_second_factors').execute();
}

export const mfa: TriageMigration = { name: '20261125T0620-mfa', up, down };
