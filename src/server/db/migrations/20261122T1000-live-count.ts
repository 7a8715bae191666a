import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

/**
 * The number of live (not deleted) assessments, and of those signed off, kept by the database as
 * assessments are created, signed off, soft-deleted, restored or removed. The history shows the
 * first beside every search ('Found X of Y'), and counting a million rows for it on every request
 * took a quarter of a second on SQLite; 'signed off' and 'not signed off' are the commonest
 * searches that match a large share of the records.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await sql`create table assessment_totals (
    id integer primary key check (id = 1),
    live bigint not null,
    live_signed_off bigint not null
  )`.execute(db);
  // SQLite stores booleans as 0/1; PostgreSQL counts them with a filter.
  await sql`insert into assessment_totals (id, live, live_signed_off)
    select 1, count(*), count(*) filter (where signed_off = ${sql.lit(engine === 'postgres' ? true : 1)})
    from assessments where deleted_at is null`.execute(db);

  if (engine === 'postgres') {
    await sql`create function assessment_totals_follow() returns trigger language plpgsql as $$
      declare
        live_change bigint := 0;
        signed_change bigint := 0;
      begin
        if tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then
          live_change := live_change + 1;
          if new.signed_off then signed_change := signed_change + 1; end if;
        end if;
        if tg_op in ('DELETE', 'UPDATE') and old.deleted_at is null then
          live_change := live_change - 1;
          if old.signed_off then signed_change := signed_change - 1; end if;
        end if;
        if live_change <> 0 or signed_change <> 0 then
          update assessment_totals
          set live = live + live_change, live_signed_off = live_signed_off + signed_change
          where id = 1;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger assessment_totals_follow
      after insert or delete or update of deleted_at, signed_off on assessments
      for each row execute function assessment_totals_follow()`.execute(db);
    return;
  }
  // A comparison is 0 or 1 in SQLite, so each change adds what the new row counts for and takes
  // away what the old one did.
  await sql`create trigger assessment_totals_insert after insert on assessments begin
      update assessment_totals
      set live = live + (new.deleted_at is null),
          live_signed_off = live_signed_off + (new.deleted_at is null and new.signed_off)
      where id = 1;
    end`.execute(db);
  await sql`create trigger assessment_totals_delete after delete on assessments begin
      update assessment_totals
      set live = live - (old.deleted_at is null),
          live_signed_off = live_signed_off - (old.deleted_at is null and old.signed_off)
      where id = 1;
    end`.execute(db);
  await sql`create trigger assessment_totals_update
    after update of deleted_at, signed_off on assessments begin
      update assessment_totals
      set live = live + (new.deleted_at is null) - (old.deleted_at is null),
          live_signed_off = live_signed_off
            + (new.deleted_at is null and new.signed_off)
            - (old.deleted_at is null and old.signed_off)
      where id = 1;
    end`.execute(db);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine === 'postgres') {
    await sql`drop trigger assessment_totals_follow on assessments`.execute(db);
    await sql`drop function assessment_totals_follow()`.execute(db);
  } else {
    for (const trigger of ['insert', 'delete', 'update']) {
      await sql`drop trigger ${sql.raw(`assessment_totals_${trigger}`)}`.execute(db);
    }
  }
  await sql`drop table assessment_totals`.execute(db);
}

export const liveCount: TriageMigration = { name: '20261122T1000-live-count', up, down };
