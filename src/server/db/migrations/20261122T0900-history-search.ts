import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

/**
 * Indexes that keep the history fast at a million assessments.
 *
 * - The status words ('signed off', 'complete' and their opposites) walk an index of their own
 *   in the history's order, so a page and the count of matches read only the matching entries.
 * - On SQLite, free text (part of an id, a code, a date) finds its candidates in an FTS5
 *   trigram index instead of reading every row; the history still checks each candidate with the
 *   same LIKE, so the index only narrows and never changes an answer. An assessment's search text
 *   is fixed when it is created (id, code, creation date), which a trigger enforces, so the index
 *   is written once per assessment.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  for (const column of ['signed_off', 'assessment_complete']) {
    await db.schema
      .createIndex(`assessments_live_${column}_idx`)
      .on('assessments')
      .columns([column, 'created_at desc', 'id desc'])
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  }

  if (engine === 'sqlite') {
    await sql`create virtual table assessment_search using fts5(
      search_text, assessment_id unindexed, tokenize = 'trigram', detail = 'none'
    )`.execute(db);
    await sql`insert into assessment_search (search_text, assessment_id)
      select search_text, id from assessments`.execute(db);
    await sql`create trigger assessments_search_insert after insert on assessments begin
      insert into assessment_search (search_text, assessment_id) values (new.search_text, new.id);
    end`.execute(db);
    await sql`create trigger assessments_search_delete after delete on assessments begin
      delete from assessment_search where assessment_id = old.id;
    end`.execute(db);
  }
  if (engine === 'postgres') {
    await sql`create function assessments_search_text_fixed() returns trigger language plpgsql as $$
      begin raise exception 'search_text is fixed when an assessment is created'; end $$`.execute(
      db,
    );
    await sql`create trigger assessments_search_text_fixed
      before update of search_text on assessments
      for each row when (new.search_text is distinct from old.search_text)
      execute function assessments_search_text_fixed()`.execute(db);
  } else {
    await sql`create trigger assessments_search_text_fixed
      before update of search_text on assessments
      when new.search_text is not old.search_text
      begin select raise(abort, 'search_text is fixed when an assessment is created'); end`.execute(
      db,
    );
  }
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine === 'postgres') {
    await sql`drop trigger assessments_search_text_fixed on assessments`.execute(db);
    await sql`drop function assessments_search_text_fixed()`.execute(db);
  } else {
    await sql`drop trigger assessments_search_text_fixed`.execute(db);
    await sql`drop trigger assessments_search_delete`.execute(db);
    await sql`drop trigger assessments_search_insert`.execute(db);
    await sql`drop table assessment_search`.execute(db);
  }
  for (const column of ['signed_off', 'assessment_complete']) {
    await db.schema.dropIndex(`assessments_live_${column}_idx`).execute();
  }
}

export const historySearch: TriageMigration = { name: '20261122T0900-history-search', up, down };
