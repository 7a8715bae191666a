import fs from 'node:fs';
import path from 'node:path';
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  type DialectAdapter,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { databaseFailureOf, DatabaseReplacedError } from './failures.ts';
import { groupCommit, type TransactionWork } from './group-commit.ts';
import type { Database } from './schema.ts';
import { NodeSqliteDatabase } from './sqlite-adapter.ts';
import { sqliteLiteralLimits } from './sqlite-literal-limits.ts';

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
  /** The PostgreSQL pool's connections now (for the metrics); undefined on SQLite. */
  poolFigures?: (() => PoolFigures) | undefined;
  /**
   * Hears the number of changes each SQLite group commit stored (for the metrics); returns the
   * function that stops listening. Undefined on PostgreSQL, which commits each change alone.
   */
  onCommitBatch?: ((listener: (changes: number) => void) => () => void) | undefined;
  /**
   * Whether the SQLite file this handle opened is still the one at its path (false once another
   * file has taken its place, as `triage restore --force` does, and from then on). Undefined on
   * PostgreSQL and for a database in memory.
   */
  stillAtItsPath?: (() => boolean) | undefined;
  close(): Promise<void>;
}

export interface PoolFigures {
  /** Connections open, in use or idle. */
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
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
  /**
   * Hears of a PostgreSQL connection lost while idle in the pool (the database restarted, or an
   * administrator ended it). The pool has already dropped it and connects anew when needed.
   */
  onConnectionLost?: (error: Error) => void;
}

/**
 * How long a request waits for a new PostgreSQL connection before it fails (503): a database
 * that does not answer is reported promptly instead of holding requests open.
 */
export const connectionTimeoutMillis = 5_000;

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

/**
 * SQLite's DDL is transactional, but Kysely's SQLite adapter says otherwise, so its migrator
 * would apply each statement on its own: a migration that failed or was killed half-way would
 * leave a schema that neither the old version nor the new one starts on. Saying so runs the
 * pending migrations in one transaction, as on PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class TransactionalDdlSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl !== undefined) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis,
      // Notices a database host that vanished without closing the connection.
      keepAlive: true,
      // Names the server's connections for the database's administrators (the URL may override);
      // the schema, when there is one, tells the connections of separate schemas apart.
      application_name:
        options.postgresSchema === undefined ? 'triage' : `triage ${options.postgresSchema}`,
      types: { getTypeParser: pgTypeParser },
      ...(options.postgresSchema === undefined
        ? {}
        : { options: `-c search_path=${options.postgresSchema}` }),
    });
    // A connection that fails while idle in the pool is dropped by the pool, which then emits
    // 'error'; a connection that fails while a request has it emits 'error' on the client. Unheard,
    // either would end the process.
    const onConnectionLost = options.onConnectionLost ?? (() => undefined);
    pool.on('error', (error) => onConnectionLost(error));
    pool.on('connect', (client) => {
      // The request that has the client hears the failure from its query.
      client.on('error', () => undefined);
    });
    // The audit CSV and the code extractor stream through server-side cursors, so memory stays
    // flat at any size (the bulk exports page by (created_at, id) instead).
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: droppingLostConnections(pool), cursor: Cursor }),
    });
    return {
      db,
      transaction: (work) => db.transaction().execute(work),
      engine: 'postgres',
      schema: options.postgresSchema ?? 'public',
      poolFigures: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      close: () => db.destroy(),
    };
  }

  const file = options.sqliteFile ?? sqliteFileIn(options.dataDir ?? './data');
  if (file !== ':memory:') keepToTheOwner(file);
  const sqlite = new NodeSqliteDatabase(file);
  const stillAtItsPath = file === ':memory:' ? undefined : watchTheFile(file);
  const db = new Kysely<Database>({
    dialect: new TransactionalDdlSqliteDialect({ database: sqlite }),
    plugins: [sqliteLiteralLimits],
  });
  const batchListeners = new Set<(changes: number) => void>();
  return {
    db,
    transaction: groupCommit(
      db,
      () => sqlite.inTransaction,
      (changes) => {
        for (const listener of batchListeners) listener(changes);
      },
      // A commit into a file that has been replaced would be acknowledged and then lost.
      () => {
        if (stillAtItsPath !== undefined && !stillAtItsPath()) throw new DatabaseReplacedError();
      },
    ),
    engine: 'sqlite',
    stillAtItsPath,
    onCommitBatch(listener) {
      batchListeners.add(listener);
      return () => batchListeners.delete(listener);
    },
    close: () => db.destroy(),
  };
}

/** The SQLite database under DATA_DIR. */
export function sqliteFileIn(dataDir: string): string {
  return path.join(dataDir, 'triage.sqlite');
}

/** The files SQLite keeps for a database: the file itself, its write-ahead log and its index. */
export function sqliteFilesOf(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

/**
 * The database holds password hashes and second-factor secrets, so only the server's user may
 * read it: a new folder is made 0700 and a new file 0600 (SQLite gives its -wal and -shm files the
 * mode of the database file), and files that others may read are narrowed to 0600 as they open.
 */
function keepToTheOwner(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const each of sqliteFilesOf(file)) {
    let mode: number;
    try {
      mode = fs.statSync(each).mode & 0o777;
    } catch {
      continue;
    }
    if ((mode & 0o077) !== 0) fs.chmodSync(each, mode & 0o700);
  }
}

/**
 * Whether the file at the path is still the one opened (same device and inode); once it is not,
 * it never is again. A stat costs a few microseconds: it is asked before each commit and request.
 */
function watchTheFile(file: string): () => boolean {
  const opened = fs.statSync(file);
  let replaced = false;
  return () => {
    if (replaced) return false;
    try {
      const now = fs.statSync(file);
      replaced = now.ino !== opened.ino || now.dev !== opened.dev;
    } catch {
      replaced = true;
    }
    return !replaced;
  };
}

/**
 * The pool as Kysely uses it, except that a client whose query failed because its connection was
 * lost goes back to the pool with that error, which ends it instead of keeping it idle. (The pool
 * drops a client it knows to be broken, but the server's farewell, such as 57P01 from
 * pg_terminate_backend, reaches the query before the socket closes.)
 */
function droppingLostConnections(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      let lost: Error | undefined;
      const noteLoss = (error: unknown) => {
        if (databaseFailureOf(error) === 'unavailable') {
          lost = error instanceof Error ? error : new Error('The connection was lost');
        }
      };
      const query = (...args: unknown[]): unknown => {
        const result = (client.query as (...parameters: unknown[]) => unknown)(...args);
        // The caller handles the rejection; this only takes note of it.
        if (result instanceof Promise) result.then(undefined, noteLoss);
        return result;
      };
      return {
        query: query as PostgresPoolClient['query'],
        release: () => client.release(lost),
      };
    },
    end: () => pool.end(),
  };
}
