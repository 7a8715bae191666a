import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { timeOrderedId } from '../../ids.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/** The unit every record made before organisation units belongs to. */
export const mainUnitCode = 'MAIN';
export const mainUnitName = 'Main clinic';

/** The tables whose rows belong to a unit, each by a column `org_unit_id` (issue 36). */
const placedTables = ['patient_records', 'assessments'] as const;

/** The columns of a table; none when it does not exist. */
async function columnsOf(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
): Promise<string[]> {
  const query =
    engine === 'postgres'
      ? sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`
      : sql<{ name: string }>`select name from pragma_table_info(${table})`;
  const { rows } = await query.execute(db);
  return rows.map((row) => row.name);
}

/**
 * Organisation units (issue 36), the foundation:
 * - `org_units`: a tree (`parent_id` null at the top) of units, each with a code unique without
 *   regard to case (`code_key`, the code lower-cased), a name, a version for If-Match, and
 *   `closed_at` once closed (a closed unit takes no new patients or assessments).
 * - `user_units`: the units each user works in; every user has at least one.
 * - `patient_records.org_unit_id` and `assessments.org_unit_id`: where the record belongs.
 * One unit, `MAIN` 'Main clinic', is made and every existing user, patient record and assessment
 * put in it. On PostgreSQL the columns take MAIN as a default only while they are added (no
 * rewrite of the rows) and then have none, so an insert that names no unit fails; SQLite cannot
 * drop a default nor add a foreign key to an existing table, so there the columns keep MAIN as
 * their default and triggers refuse a unit that does not exist.
 *
 * Written so that it can run on a database that already has its tables and columns (each part is
 * made only when missing): the migration tests of earlier versions make them beside the older
 * schema (`besideOlderSchema`, where the columns keep MAIN as their default on PostgreSQL too,
 * for the rows those tests insert as the older version did), as this version's services write
 * them (testing/migrations.ts).
 */
export async function createOrgUnits<Schema>(
  schemaDb: Kysely<Schema>,
  engine: DatabaseEngine,
  options: { besideOlderSchema?: boolean } = {},
): Promise<void> {
  const db = schemaDb as Kysely<unknown>;
  const t = columnTypes(engine);
  await db.schema
    .createTable('org_units')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('code_key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.references('org_units.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('closed_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`create index if not exists org_units_parent_idx on org_units (parent_id)`.execute(db);
  await db.schema
    .createTable('user_units')
    .ifNotExists()
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('org_unit_id', 'text', (c) => c.notNull().references('org_units.id'))
    .addPrimaryKeyConstraint('user_units_pk', ['user_id', 'org_unit_id'])
    .execute();
  await sql`create index if not exists user_units_unit_idx on user_units (org_unit_id)`.execute(db);

  const now = new Date();
  const mainId = timeOrderedId(now.getTime());
  await sql`insert into org_units (id, code, code_key, name, parent_id, version, closed_at,
      created_at, updated_at)
    select ${mainId}, ${mainUnitCode}, ${mainUnitCode.toLowerCase()}, ${mainUnitName}, null, 1,
      null, ${now.toISOString()}, ${now.toISOString()}
    where not exists (select 1 from org_units where code_key = ${mainUnitCode.toLowerCase()})`.execute(
    db,
  );
  const { rows } = await sql<{ id: string }>`select id from org_units
    where code_key = ${mainUnitCode.toLowerCase()}`.execute(db);
  const main = rows[0]?.id;
  if (main === undefined || !/^[0-9a-f-]{36}$/.test(main)) throw new Error('No MAIN unit');

  await sql`insert into user_units (user_id, org_unit_id)
    select id, ${main} from users
    where not exists (select 1 from user_units where user_units.user_id = users.id)`.execute(db);

  for (const table of placedTables) await addUnitColumn(db, engine, table, main, options);
}

/**
 * Adds `org_unit_id` to a table, every row of before in `unitId`: on PostgreSQL a reference to
 * org_units (its default dropped unless beside an older schema, where older code inserts without
 * it); on SQLite, which cannot add a reference to a table in place, a default and triggers that
 * refuse a unit that does not exist. A table not there yet (beside an older schema) is left.
 */
export async function addUnitColumn(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  unitId: string,
  options: { besideOlderSchema?: boolean } = {},
): Promise<void> {
  const columns = await columnsOf(db, engine, table);
  if (columns.length === 0) return;
  if (engine === 'postgres') {
    if (!columns.includes('org_unit_id')) {
      await sql`alter table ${sql.table(table)} add column org_unit_id text not null
        default ${sql.lit(unitId)} references org_units (id)`.execute(db);
    }
    if (options.besideOlderSchema !== true) {
      await sql`alter table ${sql.table(table)} alter column org_unit_id drop default`.execute(db);
    }
  } else if (!columns.includes('org_unit_id')) {
    await sql`alter table ${sql.table(table)} add column org_unit_id text not null
      default ${sql.lit(unitId)}`.execute(db);
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

/** Takes `org_unit_id` (and its SQLite triggers) off a table again. */
export async function dropUnitColumn(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
): Promise<void> {
  if (engine !== 'postgres') {
    await sql.raw(`drop trigger ${table}_org_unit_insert`).execute(db);
    await sql.raw(`drop trigger ${table}_org_unit_update`).execute(db);
  }
  await sql`alter table ${sql.table(table)} drop column org_unit_id`.execute(db);
}

async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await createOrgUnits(db, engine);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  for (const table of placedTables) await dropUnitColumn(db, engine, table);
  await db.schema.dropTable('user_units').execute();
  await db.schema.dropTable('org_units').execute();
}

export const orgUnits: TriageMigration = { name: '20261128T1300-org-units', up, down };
