import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

/**
 * PostgreSQL's answer to SQLite's trigram search table: a GIN trigram index on the search text,
 * which the history's `LIKE '%term%'` uses as it is. The index needs the pg_trgm extension (in
 * PostgreSQL's contrib, trusted since version 13). Where the extension cannot be created, the
 * history still works, by reading every row, so the migration goes on without the index rather
 * than keep the application from starting.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`do $$
    begin
      if not exists (select 1 from pg_extension where extname = 'pg_trgm') then
        begin
          create extension pg_trgm schema public;
        exception when others then
          raise notice 'pg_trgm could not be created (%): the history searches without it', sqlerrm;
        end;
      end if;
    end $$`.execute(db);
  // The operator class is named with the extension's schema, which need not be on the path.
  await sql`do $$
    declare
      extension_schema text;
    begin
      select n.nspname into extension_schema
      from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm';
      if extension_schema is not null then
        execute format(
          'create index assessments_search_text_trgm_idx on assessments using gin (search_text %I.gin_trgm_ops)',
          extension_schema
        );
      end if;
    end $$`.execute(db);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine !== 'postgres') return;
  // The extension stays: other schemas of the database may use it.
  await sql`drop index if exists assessments_search_text_trgm_idx`.execute(db);
}

export const postgresTrigram: TriageMigration = {
  name: '20261122T1200-postgres-trigram',
  up,
  down,
};
