import type { Kysely, SqlBool, Transaction } from 'kysely';
import type { Database } from '../schema.ts';

/** A repository works on the database or inside a transaction a service opened. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** SQLite answers 0/1 for booleans, PostgreSQL true/false. */
export function bool(value: SqlBool): boolean;
export function bool(value: SqlBool | null): boolean | null;
export function bool(value: SqlBool | null): boolean | null {
  return value === null ? null : value === true || value === 1;
}

/** A row as a repository returns it: its boolean columns booleans on both engines. */
export type WithBooleans<Row> = {
  [K in keyof Row]: Row[K] extends SqlBool
    ? boolean
    : Row[K] extends SqlBool | null
      ? boolean | null
      : Row[K];
};

/**
 * Reads the named columns of a row as booleans, in place: the exports and the impact analysis
 * read a million rows, and a copy of each would be an allocation a row.
 */
export function readBooleans<Row extends object, Column extends keyof Row>(
  row: Row,
  columns: readonly Column[],
): Omit<Row, Column> & WithBooleans<Pick<Row, Column>> {
  const values = row as Record<Column, SqlBool | null>;
  for (const column of columns) values[column] = bool(values[column]);
  return row as Omit<Row, Column> & WithBooleans<Pick<Row, Column>>;
}
