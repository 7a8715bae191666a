import { sql } from 'kysely';
import type { TriageMigration } from './types.ts';

/**
 * The live assessments of each organisation unit in the history's order: a facility user's
 * history, its count and a district's counts read one range per unit instead of every live
 * assessment (at 200,000 assessments over 100 facilities, counting one facility's history took
 * 655 ms without it and 0.05 ms with it on SQLite).
 */
export const unitHistoryIndex: TriageMigration = {
  name: '20261128T1640-unit-history-index',
  async up(db) {
    await sql`create index assessments_live_unit_idx
      on assessments (org_unit_id, created_at, id) where deleted_at is null`.execute(db);
  },
  async down(db) {
    await sql`drop index assessments_live_unit_idx`.execute(db);
  },
};
