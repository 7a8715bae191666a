import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

const rolesBefore = "role in ('nurse', 'doctor', 'admin')";
const rolesAfter = "role in ('nurse', 'doctor', 'admin', 'manager')";

/**
 * Rewrites the users table's role check from `from` to `to`. PostgreSQL changes the constraint.
 * SQLite cannot change a check in place: the table is made again from its own definition (so
 * every column a migration added is kept) with the new check, its rows copied, and its indexes
 * and triggers made again, as SQLite's procedure for schema changes says: migrate.ts runs the
 * migrations with foreign keys off, and the rebuilt table's references are checked before the
 * migration commits.
 */
async function rewriteRoleCheck(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  from: string,
  to: string,
): Promise<void> {
  if (engine === 'postgres') {
    const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
      where conrelid = 'users'::regclass and contype = 'c'
        and pg_get_constraintdef(oid) like '%role%'`.execute(db);
    for (const { name } of rows) {
      await sql`alter table users drop constraint ${sql.id(name)}`.execute(db);
    }
    await sql`alter table users add constraint users_role_check check (${sql.raw(to)})`.execute(db);
    return;
  }
  const { rows } = await sql<{ type: string; sql: string }>`select type, sql from sqlite_schema
    where tbl_name = 'users' and sql is not null order by type = 'table' desc`.execute(db);
  const [table, ...dependents] = rows;
  if (table?.type !== 'table' || !table.sql.includes(from)) {
    throw new Error(`The users table has no check ${from}`);
  }
  const rebuilt = table.sql
    .replace(from, to)
    .replace(/^CREATE TABLE ("?)users\1/i, 'CREATE TABLE users_rebuilt');
  await sql.raw(rebuilt).execute(db);
  await sql`insert into users_rebuilt select * from users`.execute(db);
  await sql`drop table users`.execute(db);
  await sql`alter table users_rebuilt rename to users`.execute(db);
  for (const dependent of dependents) await sql.raw(dependent.sql).execute(db);
  const { rows: broken } = await sql`pragma foreign_key_check`.execute(db);
  if (broken.length > 0) throw new Error('The users table was rebuilt with broken references');
}

/**
 * The role `manager` (issue 36; decisions.md section 1): a district health manager who reads what
 * a doctor reads and changes nothing. The users' role check admits it.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await rewriteRoleCheck(db, engine, rolesBefore, rolesAfter);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await rewriteRoleCheck(db, engine, rolesAfter, rolesBefore);
}

export const managerRole: TriageMigration = { name: '20261128T1310-manager-role', up, down };
