import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import { openTestApp } from '../../testing/app.ts';
import {
  computedFollowUps,
  keptFollowUps,
  linkedSaves,
  patientRecords,
  type FollowUpList,
} from '../../testing/follow-ups.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { atVersion, requestsAs } from '../../testing/requests.ts';
import {
  highRiskBody as high,
  lowRiskBody as low,
  moderateRiskBody as moderate,
} from '../../testing/risk-bodies.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { followUpOnInsert } from './20261126T1800-follow-up-on-insert.ts';
import { migrations } from './index.ts';

describe.each(testDatabases())('the follow-up-on-insert migration on $engine', (testDatabase) => {
  it('keeps each patient on Follow-up Due as the latest live assessment says', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const db = t.database.db;
      const nurse = await signedInAs(t, 'nurse');
      const admin = await signedInAs(t, 'admin');
      const call = requestsAs(t);
      const save = linkedSaves(t, nurse);
      const expectKeptAsComputed = async (expected: FollowUpList) => {
        const kept = await keptFollowUps(db);
        expect(kept).toEqual(await computedFollowUps(db));
        expect(kept).toEqual(expected);
      };

      // A database as the version before this migration made and kept it.
      await undoThrough(t.database, followUpOnInsert.name);
      const [one, two, three, four] = await patientRecords(t, nurse, ['F-1', 'F-2', 'F-3', 'F-4']);
      const oneHigh = await save(one, high);
      await save(two, low);
      const twoModerate = await save(two, moderate);
      await save(three, low);
      const fourHigh = await save(four, high);
      const before: FollowUpList = {
        rows: [
          ['F-1', oneHigh.id, 0],
          ['F-2', twoModerate.id, 1],
          ['F-4', fourHigh.id, 0],
        ],
        total: 3,
      };
      await expectKeptAsComputed(before);

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(followUpOnInsert)).map((migration) => migration.name),
      );
      await expectKeptAsComputed(before);

      // A later assessment moves the row, adds one, or removes it.
      const oneModerate = await save(one, moderate);
      const threeHigh = await save(three, high);
      await save(four, low);
      const later: FollowUpList = {
        rows: [
          ['F-1', oneModerate.id, 1],
          ['F-2', twoModerate.id, 1],
          ['F-3', threeHigh.id, 0],
        ],
        total: 3,
      };
      await expectKeptAsComputed(later);

      // An assessment dated before the patient's latest (a clock set back) changes nothing.
      t.advance(-3_600_000);
      await save(two, high);
      await save(three, low);
      t.advance(3_600_000);
      await expectKeptAsComputed(later);

      // Inserted outside a save: a deleted assessment changes nothing, and neither does a later
      // one of a deleted record.
      const copy = async (
        from: Assessment,
        changes: { deletedAt: string | null; record: string },
      ) => {
        t.advance(60_000);
        const at = t.context.now().toISOString();
        await sql`insert into assessments (id, patient_id, assessment_code, assessment_complete,
            total_score, notes, created_at, updated_at, created_by, signed_off, version,
            deleted_at, search_text, patient_gender, patient_age, created_local_date,
            patient_record_id, risk_rank, org_unit_id)
          select ${`${from.id}-copy`}, patient_id, null, assessment_complete, total_score, notes,
            ${at}, ${at}, created_by, signed_off, version, ${changes.deletedAt}, search_text,
            patient_gender, patient_age, created_local_date, ${changes.record}, risk_rank,
            org_unit_id
          from assessments where id = ${from.id}`.execute(db);
      };
      await copy(oneModerate, { deletedAt: t.context.now().toISOString(), record: one.id });
      const record = await call(
        admin,
        'DELETE',
        `/api/patients/${three.id}`,
        undefined,
        atVersion(three.version),
      );
      expect(record.statusCode, record.body).toBe(204);
      await copy(threeHigh, { deletedAt: null, record: three.id });
      await expectKeptAsComputed({
        rows: [
          ['F-1', oneModerate.id, 1],
          ['F-2', twoModerate.id, 1],
        ],
        total: 2,
      });
    } finally {
      await t.close();
    }
  });
});
