import { CompiledQuery, type Insertable } from 'kysely';
import type { Database } from '../schema.ts';
import type { Executor } from './executor.ts';

/**
 * Rows per statement. A fixed size means one SQL text per table and row count, so Kysely
 * compiles it once per call and SQLite's statement cache reuses it; 500 rows amortise the round
 * trip on PostgreSQL while staying well under SQLite's limit of 32,766 bound parameters.
 */
const maxRowsPerStatement = 500;
const maxParametersPerStatement = 30_000;

/**
 * Multi-row inserts for loading many records at once (seeding, imports). Every row must name the
 * same columns, with null (not undefined) for no value: the statement is compiled from the first
 * rows and the others only supply parameters, since compiling each chunk dominated seeding.
 */
export async function insertRows<T extends keyof Database>(
  db: Executor,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object);
  const perStatement = Math.max(
    1,
    Math.min(maxRowsPerStatement, Math.floor(maxParametersPerStatement / columns.length)),
  );
  const sqlByRowCount = new Map<number, string>();
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const parameters: unknown[] = [];
    for (const row of chunk) {
      const values = row as Record<string, unknown>;
      for (const column of columns) {
        const value = values[column];
        if (value === undefined) throw new Error(`insertRows: ${table}.${column} is undefined`);
        parameters.push(value);
      }
    }
    let sqlText = sqlByRowCount.get(chunk.length);
    if (sqlText === undefined) {
      sqlText = db.insertInto(table).values(chunk).compile().sql;
      sqlByRowCount.set(chunk.length, sqlText);
    }
    await db.executeQuery(CompiledQuery.raw(sqlText, parameters));
  }
}
