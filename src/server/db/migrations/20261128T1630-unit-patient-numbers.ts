import { sql } from 'kysely';
import type { TriageMigration } from './types.ts';

/**
 * A patient number is unique among the live records of one organisation unit (issue 36), not of
 * the whole installation: two clinics of a district number their patients each on their own.
 */
export const unitPatientNumbers: TriageMigration = {
  name: '20261128T1630-unit-patient-numbers',
  async up(db) {
    await sql`drop index patient_records_live_number_idx`.execute(db);
    await sql`create unique index patient_records_unit_number_idx
      on patient_records (org_unit_id, number_key) where deleted_at is null`.execute(db);
  },
  async down(db) {
    await sql`drop index patient_records_unit_number_idx`.execute(db);
    await sql`create unique index patient_records_live_number_idx
      on patient_records (number_key) where deleted_at is null`.execute(db);
  },
};
