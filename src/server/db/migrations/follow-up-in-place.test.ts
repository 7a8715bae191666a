import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestApp } from '../../testing/app.ts';
import { keptFollowUps, linkedSaves, patientRecords } from '../../testing/follow-ups.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { requestsAs } from '../../testing/requests.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { followUpInPlace } from './20261126T0100-follow-up-in-place.ts';
import { migrations } from './index.ts';
import {
  highRiskBody as high,
  lowRiskBody as low,
  moderateRiskBody as moderate,
} from '../../testing/risk-bodies.ts';

describe.each(testDatabases())('the follow-up-in-place migration on $engine', (testDatabase) => {
  it('keeps the follow-up rows the version before made, and keeps them from there', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const db = t.database.db;
      const nurse = await signedInAs(t, 'nurse');
      const admin = await signedInAs(t, 'admin');
      const call = requestsAs(t);
      const save = linkedSaves(t, nurse);
      const followed = () => keptFollowUps(db);

      // A database as the version before this migration made and kept it.
      await undoThrough(t.database, followUpInPlace.name);
      const [one, two, three] = await patientRecords(t, nurse, ['F-1', 'F-2', 'F-3']);
      const oneHigh = await save(one, high);
      await save(two, low);
      const twoModerate = await save(two, moderate);
      await save(three, low);
      const before = await followed();
      expect(before).toEqual({
        rows: [
          ['F-1', oneHigh.id, 0],
          ['F-2', twoModerate.id, 1],
        ],
        total: 2,
      });

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(followUpInPlace)).map((migration) => migration.name),
      );
      expect(await followed()).toEqual(before);

      // A later assessment of a followed patient changes their row where it is (on SQLite the
      // row keeps its place in the table: a row deleted and inserted again would be put after
      // F-2's).
      const rowIdOf = async (number: string) =>
        t.database.engine === 'sqlite'
          ? (
              await sql<{ rowid: number }>`select f.rowid from patient_follow_ups f
                join patient_records pr on pr.id = f.patient_record_id
                where pr.number = ${number}`.execute(db)
            ).rows[0]?.rowid
          : undefined;
      const rowBefore = await rowIdOf('F-1');
      const oneModerate = await save(one, moderate);
      expect(await followed()).toEqual({
        rows: [
          ['F-1', oneModerate.id, 1],
          ['F-2', twoModerate.id, 1],
        ],
        total: 2,
      });
      expect(await rowIdOf('F-1')).toBe(rowBefore);

      // A patient with no row gains one; one assessed at low risk loses theirs.
      const threeHigh = await save(three, high);
      expect(await followed()).toEqual({
        rows: [
          ['F-1', oneModerate.id, 1],
          ['F-2', twoModerate.id, 1],
          ['F-3', threeHigh.id, 0],
        ],
        total: 3,
      });
      await save(one, low);
      const twoAndThree = {
        rows: [
          ['F-2', twoModerate.id, 1],
          ['F-3', threeHigh.id, 0],
        ],
        total: 2,
      };
      expect(await followed()).toEqual(twoAndThree);

      // Deleting the latest assessment or the record, and restoring them, as before.
      const deleted = await call(admin, 'DELETE', `/api/assessments/${threeHigh.id}`, undefined, {
        'if-match': `"${threeHigh.version}"`,
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
      const onlyTwo = { rows: [['F-2', twoModerate.id, 1]], total: 1 };
      expect(await followed()).toEqual(onlyTwo);
      const restored = await call(admin, 'POST', `/api/assessments/${threeHigh.id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
      expect(await followed()).toEqual(twoAndThree);
      const record = await call(admin, 'DELETE', `/api/patients/${three.id}`, undefined, {
        'if-match': `"${three.version}"`,
      });
      expect(record.statusCode, record.body).toBe(204);
      expect(await followed()).toEqual(onlyTwo);
    } finally {
      await t.close();
    }
  });
});
