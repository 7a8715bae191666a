import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { TriageMigration } from './types.ts';

/**
 * PostgreSQL: the live count (`assessment_totals`, 20261122T1000-live-count) follows the
 * assessments at commit instead of at each statement. Its one row is written by every save, and
 * a row written stays locked until the transaction's commit has reached the disk: changed when
 * the assessment row was inserted, it made every other save wait through the rest of this one
 * (its results, its patient record's follow-up row, its audit row) and then through its commit.
 * A deferred trigger changes the row as the commit begins, so concurrent saves wait for each
 * other over the counts and the commit only. The count is a sum of each change's difference, so
 * when it is added does not change it. Writers now take their locks in this order: assessment
 * rows, the review total, the patient record, its follow-up row, the follow-up total, the
 * dashboard's kept counts (each change's last write) and, at commit, the live count. SQLite runs
 * one writer at a time and keeps its triggers.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`drop trigger assessment_totals_follow on assessments`.execute(db);
  await sql`create constraint trigger assessment_totals_follow
    after insert or delete or update of deleted_at, signed_off on assessments
    deferrable initially deferred
    for each row execute function assessment_totals_follow()`.execute(db);
}

async function down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`drop trigger assessment_totals_follow on assessments`.execute(db);
  await sql`create trigger assessment_totals_follow
    after insert or delete or update of deleted_at, signed_off on assessments
    for each row execute function assessment_totals_follow()`.execute(db);
}

export const liveCountAtCommit: TriageMigration = {
  name: '20261126T1700-live-count-at-commit',
  up,
  down,
};
