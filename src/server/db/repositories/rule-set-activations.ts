import type { Insertable, Selectable } from 'kysely';
import type { RuleSetActivationsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type RuleSetActivationRow = Selectable<RuleSetActivationsTable>;

export const ruleSetActivationsRepository = {
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
