import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * Which rule set new saves score with: every activation an administrator made, kept as a
 * history. The latest (by time, then id) is active; with none, the default '2.0' is. A save
 * reads the latest through the index, one row.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('rule_set_activations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('activated_at', t.timestamp, (c) => c.notNull())
    .addColumn('activated_by', 'text', (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema
    .createIndex('rule_set_activations_latest_idx')
    .on('rule_set_activations')
    .columns(['activated_at', 'id'])
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rule_set_activations').execute();
}

export const ruleSetActivations: TriageMigration = {
  name: '20261125T0500-rule-set-activations',
  up,
  down,
};
