import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import { openTestApp, type TestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { computedFollowUps, keptFollowUps, patientRecords } from '../../testing/follow-ups.ts';
import {
  countedTotals,
  fullCounts,
  keptCounts,
  keptTotals,
  pendingDeltas,
} from '../../testing/kept-counts.ts';
import { atVersion, requestsAs } from '../../testing/requests.ts';
import { highRiskBody, lowRiskBody, moderateRiskBody } from '../../testing/risk-bodies.ts';
import { signedInAs } from '../../testing/users.ts';
import { compactKeptCountsPeriodically } from '../../services/kept-count-compaction.ts';
import { migrateDown, migrateToLatest } from '../migrate.ts';
import { keptCountsRepository } from '../repositories/kept-counts.ts';
import { keptCountDeltas } from './20261128T0600-kept-count-deltas.ts';
import { migrations } from './index.ts';

const review = {
  reviews: [
    { condition: 'DM2', agreed: true, comments: '' },
    { condition: 'TB', agreed: false, comments: 'No', doctorStatus: 'MAYBE' },
  ],
};

/** Saves, sign-offs, a review lock, a delete and patients on Follow-up Due, as `t`'s users. */
async function someChanges(t: TestApp, numbers: readonly [string, string]): Promise<void> {
  const call = requestsAs(t);
  const nurse = await signedInAs(t, 'nurse');
  const doctor = await signedInAs(t, 'doctor');
  const admin = await signedInAs(t, 'admin');
  const [one, two] = await patientRecords(t, nurse, numbers);
  const saved: Assessment[] = [];
  for (const [patientId, body] of [
    [one.id, highRiskBody],
    [two.id, moderateRiskBody],
    [undefined, lowRiskBody],
    [undefined, highRiskBody],
  ] as const) {
    const response = await call(nurse, 'POST', '/api/assessments', { ...body, patientId });
    expect(response.statusCode, response.body).toBe(201);
    saved.push(response.json<Assessment>());
    t.advance(60_000);
  }
  const [first, , third, fourth] = saved as [Assessment, Assessment, Assessment, Assessment];
  for (const assessment of [first, fourth]) {
    const signed = await call(
      nurse,
      'POST',
      `/api/assessments/${assessment.id}/sign-off`,
      undefined,
      atVersion(assessment.version),
    );
    expect(signed.statusCode, signed.body).toBe(200);
  }
  const locked = await call(doctor, 'POST', `/api/assessments/${first.id}/review/lock`, review);
  expect(locked.statusCode, locked.body).toBe(200);
  const deleted = await call(
    admin,
    'DELETE',
    `/api/assessments/${third.id}`,
    undefined,
    atVersion(third.version),
  );
  expect(deleted.statusCode, deleted.body).toBe(204);
}

/** Every kept figure beside a recount of the stored rows. */
async function keptAndCounted(t: TestApp) {
  return {
    kept: {
      counts: await keptCounts(t.database),
      totals: await keptTotals(t.database),
      followUps: await keptFollowUps(t.database.db),
    },
    counted: {
      counts: await fullCounts(t.database),
      totals: await countedTotals(t.database),
      followUps: await computedFollowUps(t.database.db),
    },
  };
}

describe.each(testDatabases())('the kept-count-deltas migration on $engine', (testDatabase) => {
  it('keeps every count the version before kept, and keeps them exact from there', async () => {
    const t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    try {
      // A database the version before made, with rows: the changes' deltas are folded in as the
      // migration is undone, and its tables go.
      await someChanges(t, ['D-1', 'D-2']);
      const later = migrations.slice(migrations.indexOf(keptCountDeltas));
      for (let undone = 0; undone < later.length; undone++) await migrateDown(t.database);
      const tables = (await t.database.db.introspection.getTables())
        .filter((table) => t.database.schema === undefined || table.schema === t.database.schema)
        .map((table) => table.name);
      expect(tables).not.toContain('population_count_deltas');
      const { rows } = await sql<{ n: number | string }>`select count(*) as n
        from population_counts where n <> 0`.execute(t.database.db);
      expect(Number(rows[0]?.n)).toBeGreaterThan(10);

      expect(await migrateToLatest(t.database)).toEqual(later.map((migration) => migration.name));
      expect(await pendingDeltas(t.database)).toBe(0);
      const migrated = await keptAndCounted(t);
      expect(migrated.kept).toEqual(migrated.counted);
      expect(migrated.kept.totals).toEqual([3, 2, 1, 2]);

      // Changes now go to the deltas, read with the rows; a fold moves them into the rows.
      await someChanges(t, ['D-3', 'D-4']);
      expect(await pendingDeltas(t.database)).toBeGreaterThan(0);
      const changed = await keptAndCounted(t);
      expect(changed.kept).toEqual(changed.counted);
      expect(changed.kept.totals).toEqual([6, 4, 2, 4]);
      await keptCountsRepository.compact(t.database);
      expect(await pendingDeltas(t.database)).toBe(0);
      expect(await keptAndCounted(t)).toEqual(changed);
      // Folding again changes nothing.
      await keptCountsRepository.compact(t.database);
      expect(await keptAndCounted(t)).toEqual(changed);
    } finally {
      await t.close();
    }
  });

  it('keeps the counts when folds run side by side with each other and with changes', async () => {
    const t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    try {
      const fold = () => keptCountsRepository.compact(t.database);
      await Promise.all([
        someChanges(t, ['E-1', 'E-2']),
        fold(),
        fold(),
        someChanges(t, ['E-3', 'E-4']),
        fold(),
      ]);
      await Promise.all([fold(), fold(), fold()]);
      const folded = await keptAndCounted(t);
      expect(folded.kept).toEqual(folded.counted);
      expect(folded.kept.totals).toEqual([6, 4, 2, 4]);
      expect(await pendingDeltas(t.database)).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('are folded by the server’s timer by themselves', async () => {
    const t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    const stop = compactKeptCountsPeriodically(
      t.database,
      (error) => {
        throw error;
      },
      20,
    );
    try {
      await someChanges(t, ['T-1', 'T-2']);
      const before = await keptAndCounted(t);
      for (let wait = 0; wait < 250 && (await pendingDeltas(t.database)) > 0; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await pendingDeltas(t.database)).toBe(0);
      expect(await keptAndCounted(t)).toEqual(before);
    } finally {
      await stop();
      await t.close();
    }
  });
});

// Only PostgreSQL runs writers side by side; SQLite runs one at a time.
const postgresDatabases = testDatabases().filter((database) => database.engine === 'postgres');
for (const testDatabase of postgresDatabases) {
  describe('changes beside held count rows on postgres', () => {
    it('never wait for the rows of the kept counts, the live count or the worklists’ lengths', async () => {
      const t = await openTestApp(testDatabase);
      try {
        const call = requestsAs(t);
        const nurse = await signedInAs(t, 'nurse');
        const doctor = await signedInAs(t, 'doctor');
        const admin = await signedInAs(t, 'admin');
        const [patient] = await patientRecords(t, nurse, ['H-1']);
        // Every count row exists and holds figures.
        await someChanges(t, ['H-2', 'H-3']);
        await keptCountsRepository.compact(t.database);
        const first = await call(nurse, 'POST', '/api/assessments', highRiskBody);
        expect(first.statusCode, first.body).toBe(201);
        const assessment = first.json<Assessment>();

        const within = <T>(promise: Promise<T>) =>
          Promise.race([
            promise,
            new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000)),
          ]);
        const outcomes = await t.database.db.transaction().execute(async (trx) => {
          // Another transaction, as every save of the day did before, holds every count row.
          for (const table of [
            'population_counts',
            'agreement_counts',
            'assessment_totals',
            'worklist_totals',
          ]) {
            await sql`select 1 from ${sql.table(table)} for update`.execute(trx);
          }
          const status = (response: Promise<{ statusCode: number }>) =>
            within(response.then((answer) => answer.statusCode));
          return {
            anonymous: await status(call(nurse, 'POST', '/api/assessments', lowRiskBody)),
            linked: await status(
              call(nurse, 'POST', '/api/assessments', { ...highRiskBody, patientId: patient.id }),
            ),
            signOff: await status(
              call(
                nurse,
                'POST',
                `/api/assessments/${assessment.id}/sign-off`,
                undefined,
                atVersion(assessment.version),
              ),
            ),
            lock: await status(
              call(doctor, 'POST', `/api/assessments/${assessment.id}/review/lock`, review),
            ),
            remove: await status(
              call(
                admin,
                'DELETE',
                `/api/assessments/${assessment.id}`,
                undefined,
                atVersion(assessment.version + 1),
              ),
            ),
          };
        });
        expect(outcomes).toEqual({
          anonymous: 201,
          linked: 201,
          signOff: 200,
          lock: 200,
          remove: 204,
        });
        const after = await keptAndCounted(t);
        expect(after.kept).toEqual(after.counted);
      } finally {
        await t.close();
      }
    });
  });
}
