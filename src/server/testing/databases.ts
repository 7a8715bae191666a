import crypto from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseEngine, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

export interface TestDatabase {
  engine: DatabaseEngine;
  /** Opens a fresh, migrated database: an in-memory SQLite file or a new PostgreSQL schema. */
  open: () => Promise<DatabaseHandle>;
}

/** PostgreSQL takes part whenever TEST_DATABASE_URL is set; SQLite always does. */
export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

const sqlite: TestDatabase = {
  engine: 'sqlite',
  async open() {
    const handle = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(handle);
    return handle;
  },
};

function postgres(url: string): TestDatabase {
  return {
    engine: 'postgres',
    async open() {
      const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const handle = openDatabase({ databaseUrl: url, postgresSchema: schema, poolSize: 4 });
      await migrateToLatest(handle);
      return {
        ...handle,
        async close() {
          await handle.close();
          const cleanup = new pg.Client({ connectionString: url });
          await cleanup.connect();
          await cleanup.query(`drop schema ${schema} cascade`);
          await cleanup.end();
        },
      };
    },
  };
}

/** The engines every database test runs on, for `describe.each`. */
export function testDatabases(): TestDatabase[] {
  const url = testDatabaseUrl();
  return url === undefined ? [sqlite] : [sqlite, postgres(url)];
}
