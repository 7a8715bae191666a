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
