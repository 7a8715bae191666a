import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { DatabaseHandle } from './database.ts';
import { migrations } from './migrations/index.ts';

function migrator(handle: DatabaseHandle): Migrator {
  return new Migrator({
    db: handle.db,
    // Named, or Kysely may take another schema's migration tables in the same database for ours.
    ...(handle.schema === undefined ? {} : { migrationTableSchema: handle.schema }),
    provider: {
      getMigrations: () =>
        Promise.resolve(
          Object.fromEntries(
            migrations.map((m): [string, Migration] => [
              m.name,
              // Kysely hands each migration the transaction it runs in; SQLite has one
              // connection, so using any other handle would wait forever.
              {
                up: (trx: Kysely<unknown>) => m.up(trx, handle.engine),
                down: (trx: Kysely<unknown>) => m.down(trx, handle.engine),
              },
            ]),
          ),
        ),
    },
  });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : 'unknown error';
    // Before any migration runs (the migrations table cannot be read or made) none failed.
    const what =
      failed === undefined
        ? 'The database schema could not be brought up to date'
        : `Migration ${failed.migrationName} failed`;
    throw new Error(`${what}: ${reason}`, { cause: result.error });
  }
  return (result.results ?? []).map((r) => r.migrationName);
}

/**
 * Runs migrations with SQLite's foreign keys off, as SQLite's procedure for schema changes says:
 * a table that others reference can only be made again (to change a check) while they are off,
 * and they can only be turned off outside the migrations' transaction. A migration that rebuilds
 * a table checks the references itself (`pragma foreign_key_check`) before it commits. PostgreSQL
 * changes constraints in place and needs nothing of this.
 */
async function withoutSqliteForeignKeys(
  handle: DatabaseHandle,
  run: () => Promise<MigrationResultSet>,
): Promise<MigrationResultSet> {
  if (handle.engine !== 'sqlite') return run();
  await sql`pragma foreign_keys = off`.execute(handle.db);
  try {
    return await run();
  } finally {
    await sql`pragma foreign_keys = on`.execute(handle.db);
  }
}

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  return unwrap(await withoutSqliteForeignKeys(handle, () => migrator(handle).migrateToLatest()));
}

/** Undoes the most recent migration. */
export async function migrateDown(handle: DatabaseHandle): Promise<string[]> {
  return unwrap(await withoutSqliteForeignKeys(handle, () => migrator(handle).migrateDown()));
}
