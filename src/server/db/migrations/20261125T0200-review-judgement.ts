import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * The doctors' judgement per review row: `decided` says whether the doctor chose Agree or
 * Disagree for the condition (a condition left untouched is still stored as not agreed, and is
 * not reviewed), and `doctor_status` the risk status the doctor would give when disagreeing
 * (FALSE, MAYBE, TRUE or DIAGNOSED; null when none was given).
 *
 * Rows stored before this migration never said whether the doctor chose. They are read as
 * follows: agreed rows were chosen (the stored default is not agreed); not-agreed rows with
 * comments were chosen (the doctor wrote about the condition); not-agreed rows without comments
 * are taken as untouched, the most likely reading, though a doctor may have chosen Disagree and
 * written nothing. No stored row has a doctor status.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .alterTable('doctor_reviews')
    .addColumn('decided', t.bool, (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('doctor_reviews')
    .addColumn('doctor_status', 'text', (c) =>
      c.check(sql`doctor_status in ('FALSE', 'MAYBE', 'TRUE', 'DIAGNOSED')`),
    )
    .execute();
  await sql`update doctor_reviews set decided = ${sql.raw(engine === 'postgres' ? 'true' : '1')}
    where agreed = ${sql.raw(engine === 'postgres' ? 'true' : '1')} or comments <> ''`.execute(db);
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('doctor_reviews').dropColumn('doctor_status').execute();
  await db.schema.alterTable('doctor_reviews').dropColumn('decided').execute();
}

export const reviewJudgement: TriageMigration = {
  name: '20261125T0200-review-judgement',
  up,
  down,
};
