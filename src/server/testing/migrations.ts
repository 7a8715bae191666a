import { migrateDown } from '../db/migrate.ts';
import { migrations } from '../db/migrations/index.ts';
import type { DatabaseHandle } from '../db/database.ts';

/** Undoes migrations down to and including the named one, as a database from before it was. */
export async function undoThrough(handle: DatabaseHandle, name: string): Promise<void> {
  const index = migrations.findIndex((migration) => migration.name === name);
  if (index === -1) throw new Error(`No migration ${name}`);
  for (let undone = index; undone < migrations.length; undone++) await migrateDown(handle);
}
