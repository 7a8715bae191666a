import type { Insertable } from 'kysely';
import type { Database } from '../schema.ts';
import type { Executor } from './executor.ts';

/**
 * Multi-row inserts for loading many records at once (seeding, imports). Rows are sent in
 * statements small enough for SQLite's limit of 32,766 bound parameters.
 */
export async function insertRows<T extends keyof Database>(
  db: Executor,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object).length;
  const perStatement = Math.max(1, Math.floor(30_000 / columns));
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    await db.insertInto(table).values(chunk).execute();
  }
}
