import { sql } from 'kysely';
import { migrateDown } from '../db/migrate.ts';
import { migrations } from '../db/migrations/index.ts';
import { createKeptCountDeltaTables } from '../db/migrations/20261128T0600-kept-count-deltas.ts';
import { createOrgUnits, orgUnits } from '../db/migrations/20261128T1300-org-units.ts';
import {
  createUnitKeptCountDeltaTables,
  unitKeptCounts,
} from '../db/migrations/20261128T1600-unit-kept-counts.ts';
import { clientUnits, createClientUnits } from '../db/migrations/20261128T1610-client-units.ts';
import type { DatabaseHandle } from '../db/database.ts';

/**
 * Undoes migrations down to and including the named one, as a database from before it was. The
 * kept counts' delta tables (20261128T0600-kept-count-deltas) are made again, empty: this
 * version's services write the dashboard's count changes there, and the tests save through them
 * on the older schema. Their rows are added to the counts as they are read and folded in when the
 * migrations run again. Likewise the organisation units (20261128T1300-org-units), which this
 * version's services read and write with every user, patient record and assessment, are made
 * again beside an older schema, unless that migration itself is the one undone; and so is the
 * unit of API tokens, CDS clients and FHIR clients (20261128T1610-client-units), which their
 * services write. The kept counts' delta tables take the shape of
 * 20261128T1600-unit-kept-counts (per unit), in which the services write them; that migration,
 * run again, computes the counts from the stored rows.
 */
export async function undoThrough(handle: DatabaseHandle, name: string): Promise<void> {
  const index = migrations.findIndex((migration) => migration.name === name);
  if (index === -1) throw new Error(`No migration ${name}`);
  for (let undone = index; undone < migrations.length; undone++) await migrateDown(handle);
  if (index <= migrations.indexOf(unitKeptCounts)) {
    // This version's services write the deltas per unit (20261128T1600-unit-kept-counts). The
    // deltas of the older shape are empty here: the migrations undone folded them in.
    await sql`drop table if exists population_count_deltas`.execute(handle.db);
    await sql`drop table if exists agreement_count_deltas`.execute(handle.db);
    await createUnitKeptCountDeltaTables(handle.db);
  }
  await createKeptCountDeltaTables(handle.db);
  if (index < migrations.indexOf(orgUnits)) {
    await createOrgUnits(handle.db, handle.engine, { besideOlderSchema: true });
  }
  if (index < migrations.indexOf(clientUnits) && index !== migrations.indexOf(orgUnits)) {
    await createClientUnits(handle.db, handle.engine, { besideOlderSchema: true });
  }
}
