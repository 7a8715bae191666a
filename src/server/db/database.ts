import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { groupCommit, type TransactionWork } from './group-commit.ts';
import type { Database } from './schema.ts';
import { NodeSqliteDatabase } from './sqlite-adapter.ts';

export type DatabaseEngine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * Runs one change atomically. On SQLite, concurrent changes share a commit (group-commit.ts);
   * on PostgreSQL each is a transaction of its own on the pool.
   */
  transaction<T>(work: TransactionWork<T>): Promise<T>;
  engine: DatabaseEngine;
  /** The PostgreSQL schema the tables live in; undefined on SQLite. */
  schema?: string | undefined;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// connection string; when absent, SQLite under dataDir. */
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** PostgreSQL schema to use (tests run each file in a schema of its own). */
  postgresSchema?: string;
  /** SQLite file name; ':memory:' for a throwaway database. */
  sqliteFile?: string;
  poolSize?: number;
}

const pgTypes = {
  INT8: 20,
  NUMERIC: 1700,
  TIMESTAMPTZ: 1184,
} as const;

/**
 * Row values come back the same on both engines: counts and identities as numbers, timestamps
 * as ISO-8601 UTC strings (SQLite stores them as such text).
 */
function pgTypeParser(oid: number, format?: string): (value: string) => unknown {
  if (oid === pgTypes.INT8 || oid === pgTypes.NUMERIC) return Number;
  if (oid === pgTypes.TIMESTAMPTZ) return (value) => new Date(value).toISOString();
  return pg.types.getTypeParser(oid, format as 'text') as (value: string) => unknown;
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl !== undefined) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: { getTypeParser: pgTypeParser },
      ...(options.postgresSchema === undefined
        ? {}
        : { options: `-c search_path=${options.postgresSchema}` }),
    });
    // The audit CSV and the code extractor stream through server-side cursors, so memory stays
    // flat at any size (the bulk exports page by (created_at, id) instead).
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
    return {
      db,
      transaction: (work) => db.transaction().execute(work),
      engine: 'postgres',
      schema: options.postgresSchema ?? 'public',
      close: () => db.destroy(),
    };
  }

  const file = options.sqliteFile ?? path.join(options.dataDir ?? './data', 'triage.sqlite');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new NodeSqliteDatabase(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    transaction: groupCommit(db, () => sqlite.inTransaction),
    engine: 'sqlite',
    close: () => db.destroy(),
  };
}
