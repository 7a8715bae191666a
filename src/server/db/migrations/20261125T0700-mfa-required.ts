import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * A second factor required of some roles (MFA_REQUIRED_ROLES), after a grace (MFA_GRACE_DAYS):
 * - `users.second_factor_required_since`: the first sign-in at which the requirement applied to
 *   the user (their role required, no factor confirmed), from which the grace runs; null until
 *   then, and again once they confirm a factor or their role changes;
 * - `second_factor_challenges.purpose`: what a challenge admits, `code` (the second step of a
 *   user with a factor, the only kind before) or `enrolment` (a user past the grace, who may only
 *   set up a factor).
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .alterTable('users')
    .addColumn('second_factor_required_since', t.timestamp)
    .execute();
  await db.schema
    .alterTable('second_factor_challenges')
    .addColumn('purpose', 'text', (c) =>
      c
        .notNull()
        .defaultTo('code')
        .check(sql`purpose in ('code', 'enrolment')`),
    )
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  // An enrolment challenge would read as a code challenge, which its user cannot answer.
  await sql`delete from second_factor_challenges where purpose = 'enrolment'`.execute(db);
  await db.schema.alterTable('second_factor_challenges').dropColumn('purpose').execute();
  await db.schema.alterTable('users').dropColumn('second_factor_required_since').execute();
}

export const mfaRequired: TriageMigration = { name: '20261125T0700-mfa-required', up, down };
