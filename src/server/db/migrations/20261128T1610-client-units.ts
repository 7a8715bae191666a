import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnsOf, mainUnitCode, orgUnits } from './20261128T1300-org-units.ts';
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
  for (const table of clientTables) {
    // Beside an older schema, the table may not be there yet.
    const columns = await columnsOf(db, engine, table);
    if (columns.length === 0) continue;
    if (engine === 'postgres') {
      if (!columns.includes('org_unit_id')) {
        await sql`alter table ${sql.table(table)} add column org_unit_id text not null
          default ${sql.lit(unit)} references org_units (id)`.execute(db);
      }
      if (options.besideOlderSchema !== true) {
        await sql`alter table ${sql.table(table)} alter column org_unit_id drop default`.execute(
          db,
        );
      }
    } else if (!columns.includes('org_unit_id')) {
      await sql`alter table ${sql.table(table)} add column org_unit_id text not null
        default ${sql.lit(unit)}`.execute(db);
      for (const [when, event] of [
        ['insert', 'before insert'],
        ['update', 'before update of org_unit_id'],
      ] as const) {
        await sql`create trigger if not exists ${sql.raw(`${table}_org_unit_${when}`)}
          ${sql.raw(event)} on ${sql.table(table)}
          when not exists (select 1 from org_units where id = new.org_unit_id)
          begin select raise(abort, ${sql.lit(`FOREIGN KEY constraint failed: ${table}.org_unit_id`)}); end`.execute(
          db,
        );
      }
    }
  }
}

async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await createClientUnits(db, engine);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  for (const table of clientTables) {
    if (engine !== 'postgres') {
      await sql.raw(`drop trigger ${table}_org_unit_insert`).execute(db);
      await sql.raw(`drop trigger ${table}_org_unit_update`).execute(db);
    }
    await sql`alter table ${sql.table(table)} drop column org_unit_id`.execute(db);
  }
}

export const clientUnits: TriageMigration = { name: '20261128T1610-client-units', up, down };
