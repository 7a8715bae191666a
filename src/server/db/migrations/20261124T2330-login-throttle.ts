import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * Sign-in throttling keeps one counter a key (a user name and address, an address, a user name)
 * that a single statement raises and reads, so parallel attempts cannot all read a count from
 * before each other's failures. The failure rows it replaces only ever said how many failures
 * there had been in the last 15 minutes; they are not carried over, so at most one window of
 * throttling starts afresh at the upgrade (the audit trail keeps every failed sign-in).
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('window_start', t.timestamp, (column) => column.notNull())
    .addColumn('count', 'integer', (column) => column.notNull())
    .execute();
  await db.schema.dropTable('login_failures').execute();
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  const identity =
    engine === 'postgres'
      ? sql`id bigint generated always as identity primary key`
      : sql`id integer primary key autoincrement`;
  await sql`create table login_failures (
    ${identity},
    username text not null,
    address text not null,
    at ${sql.raw(String(t.timestamp))} not null
  )`.execute(db);
  await db.schema
    .createIndex('login_failures_username_idx')
    .on('login_failures')
    .columns(['username', 'at'])
    .execute();
  await db.schema
    .createIndex('login_failures_address_idx')
    .on('login_failures')
    .columns(['address', 'at'])
    .execute();
  await db.schema.dropTable('login_throttle').execute();
}

export const loginThrottle: TriageMigration = { name: '20261124T2330-login-throttle', up, down };
