import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Presents Node's built-in `node:sqlite` as the better-sqlite3 shaped database Kysely's
 * SqliteDialect drives. Prepared statements are cached by SQL text, since Kysely prepares on
 * every query and preparing dominates the cost of small statements.
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, NodeSqliteStatement>();
  static readonly #cacheSize = 500;

  constructor(file: string) {
    this.#db = new DatabaseSync(file);
    // WAL lets readers work beside the writer; synchronous=FULL must be set on every connection
    // because a reopened WAL database otherwise falls back to NORMAL and may lose committed work
    // on power loss. Temporary storage in memory: a statement whose triggers change other rows
    // (a save naming a patient refreshes the patient's follow-up row) keeps its statement
    // journal there instead of creating, writing and deleting a file each time; this cost such
    // a save about 150 µs. The committed data and its WAL are unchanged. A page cache of 64 MiB
    // instead of SQLite's 2 MiB: at a million assessments a save naming a random patient read
    // about 20 pages from the file each time (the patient's index pages, its previous assessment,
    // and the upper pages of every index it writes, evicted by the others).
    this.#db.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536;',
    );
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = new NodeSqliteStatement(this.#db.prepare(sql));
      if (this.#statements.size >= NodeSqliteDatabase.#cacheSize) {
        const oldest = this.#statements.keys().next();
        if (oldest.done !== true) this.#statements.delete(oldest.value);
      }
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Whether a transaction is open. SQLite rolls a transaction back by itself after some failures
   * (a full disk among them), and then there is nothing left to roll back.
   */
  get inTransaction(): boolean {
    return this.#db.isTransaction;
  }

  /** Runs a statement outside Kysely (pragmas, checks in tests). */
  exec(sql: string): void {
    this.#db.exec(sql);
  }

  pragma(name: string): unknown {
    return this.#db.prepare(`PRAGMA ${name}`).get();
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }
}

/** node:sqlite binds only numbers, strings, bigints, buffers and null. */
function toSqliteValue(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (
    typeof value === 'number' ||
    typeof value === 'string' ||
    typeof value === 'bigint' ||
    value instanceof Uint8Array
  ) {
    return value;
  }
  throw new TypeError(`Cannot bind a ${typeof value} to SQLite`);
}

class NodeSqliteStatement implements SqliteStatement {
  readonly #statement: StatementSync;
  /**
   * Whether the statement returns rows, asked once: `columns()` describes every column afresh,
   * and Kysely asks before every execution.
   */
  readonly reader: boolean;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...parameters.map(toSqliteValue));
  }

  run(parameters: ReadonlyArray<unknown>): {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  } {
    return this.#statement.run(...parameters.map(toSqliteValue));
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#statement.iterate(...parameters.map(toSqliteValue));
  }
}
