import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * What the FHIR API's versions need beyond the assessment's own version and update time
 * (issue 38): a review changes an assessment's RiskAssessments (the doctors' comments are their
 * notes) but not the assessment, so each assessment counts its review writes
 * (`review_version`) and keeps the time of the last (`reviewed_at`). An assessment reviewed
 * before counts one write, at its review rows' time.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .alterTable('assessments')
    .addColumn('review_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('assessments').addColumn('reviewed_at', t.timestamp).execute();
  await sql`update assessments set review_version = 1, reviewed_at = (
      select max(doctor_reviews.created_at) from doctor_reviews
      where doctor_reviews.assessment_id = assessments.id)
    where exists (select 1 from doctor_reviews where doctor_reviews.assessment_id = assessments.id)`.execute(
    db,
  );
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assessments').dropColumn('reviewed_at').execute();
  await db.schema.alterTable('assessments').dropColumn('review_version').execute();
}

export const fhirVersions: TriageMigration = {
  name: '20261128T1400-fhir-versions',
  up,
  down,
};
