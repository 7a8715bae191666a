import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import {
  addUnitColumn,
  dropUnitColumn,
  mainUnitCode,
  orgUnits,
} from './20261128T1300-org-units.ts';
import type { TriageMigration } from './types.ts';

/** The tables of other systems' credentials, each registered for a unit (issue 36). */
const clientTables = ['api_tokens', 'cds_clients', 'fhir_clients'] as const;

/**
 * The unit the org-units migration made, which every record of before was put in: the unit with
 * the code MAIN; if it was renamed, the one unit made no later than that migration was recorded
 * as run (its id and creation time were taken as it ran; every unit made since is later).
 * Refuses, naming what to do, when neither finds exactly one.
 */
export async function unitOfOrgUnitsMigration(db: Kysely<unknown>): Promise<string> {
  const main = await sql<{ id: string }>`select id from org_units
    where code_key = ${mainUnitCode.toLowerCase()}`.execute(db);
  const byCode = main.rows[0]?.id;
  if (byCode !== undefined) return byCode;
  const ran = await sql<{ timestamp: string }>`select timestamp from kysely_migration
    where name = ${orgUnits.name}`.execute(db);
  const ranAt = ran.rows[0] === undefined ? Number.NaN : Date.parse(ran.rows[0].timestamp);
  const units = await sql<{ id: string; created_at: string | Date }>`select id, created_at
    from org_units`.execute(db);
  const made = units.rows.filter((unit) => new Date(unit.created_at).getTime() <= ranAt);
  const only = made.length === 1 ? made[0] : undefined;
  if (only === undefined) {
    throw new Error(
      `No unit has the code ${mainUnitCode}, and the unit the migration ${orgUnits.name} made cannot be told from the others: give the code ${mainUnitCode} back to the unit every earlier record was put in, then start again. API tokens, CDS clients and FHIR clients registered before are put in that unit.`,
    );
  }
  return only.id;
}

/**
 * API tokens, CDS clients and FHIR clients belong to an organisation unit (issue 36): each reads
 * only the records of its unit and the units below it. `org_unit_id` on `api_tokens`,
 * `cds_clients` and `fhir_clients`; the rows of before go to the unit the org-units migration
 * made (MAIN). As in that migration, PostgreSQL takes that unit as a default only while the
 * column is added and then has none, with a foreign key; SQLite cannot drop a default nor add a
 * foreign key to an existing table, so the column keeps it and triggers refuse a unit that does
 * not exist.
 *
 * Each part is made only when missing, so that it also runs beside an older schema
 * (`besideOlderSchema`, where PostgreSQL keeps the default too): the migration tests of earlier
 * versions make the column there, as this version's services write it (testing/migrations.ts).
 */
export async function createClientUnits<Schema>(
  schemaDb: Kysely<Schema>,
  engine: DatabaseEngine,
  options: { besideOlderSchema?: boolean } = {},
): Promise<void> {
  const db = schemaDb as Kysely<unknown>;
  const unit = await unitOfOrgUnitsMigration(db);
  for (const table of clientTables) await addUnitColumn(db, engine, table, unit, options);
}

async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await createClientUnits(db, engine);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  for (const table of clientTables) await dropUnitColumn(db, engine, table);
}

export const clientUnits: TriageMigration = { name: '20261128T1610-client-units', up, down };
