import { sql, type Insertable, type Selectable } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import type { RuleSetActivationsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type RuleSetActivationRow = Selectable<RuleSetActivationsTable>;

export const ruleSetActivationsRepository = {
  /**
   * Makes activations take turns until the transaction ends, so that each reads the one before
   * it as committed: two at once would otherwise both build on the same previous activation, and
   * the newest audit row could name a version that is not in force. SQLite's writers already
   * take turns.
   */
  async serialize(db: Executor, engine: DatabaseEngine): Promise<void> {
    if (engine !== 'postgres') return;
    await sql`select pg_advisory_xact_lock(hashtext('triage.rule_set_activation'))`.execute(db);
  },

  /** The activation in force, or undefined when none was ever recorded: one row by the index. */
  async latest(db: Executor): Promise<RuleSetActivationRow | undefined> {
    return db
      .selectFrom('rule_set_activations')
      .selectAll()
      .orderBy('activated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  async insert(db: Executor, row: Insertable<RuleSetActivationsTable>): Promise<void> {
    await db.insertInto('rule_set_activations').values(row).execute();
  },
};
