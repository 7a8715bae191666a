import { sql } from 'kysely';
import { everythingScope } from '../../auth/scope.ts';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import { assessmentsRepository } from '../repositories/assessments.ts';
import { openTestApp, type TestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { atVersion, requestsAs } from '../../testing/requests.ts';
import { highRiskBody, lowRiskBody } from '../../testing/risk-bodies.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { liveCountAtCommit } from './20261126T1700-live-count-at-commit.ts';
import { migrations } from './index.ts';

/** The kept live count beside a count of the rows. */
async function liveCounts(t: TestApp) {
  const db = t.database.db;
  // As the history reads it: the row plus its deltas (migration kept-count-deltas).
  const count = (signedOff?: boolean) =>
    assessmentsRepository.count(db, t.database.engine, everythingScope, {
      textTerms: [],
      numberTerms: [],
      signedOff,
    });
  const kept = { live: await count(), live_signed_off: await count(true) };
  const rows = await db
    .selectFrom('assessments')
    .where('deleted_at', 'is', null)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('live'),
      eb.fn.sum<number | string | null>(eb.cast<number>('signed_off', 'integer')).as('signedOff'),
    ])
    .executeTakeFirstOrThrow();
  return {
    kept: [Number(kept.live), Number(kept.live_signed_off)],
    counted: [Number(rows.live), Number(rows.signedOff ?? 0)],
  };
}

/** Resolves with 'pending' when `promise` has not settled within `ms`. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);
}

describe.each(testDatabases())('the live-count-at-commit migration on $engine', (testDatabase) => {
  it('keeps the live count the version before kept, and keeps it from there', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const call = requestsAs(t);
      const nurse = await signedInAs(t, 'nurse');
      const admin = await signedInAs(t, 'admin');
      const save = async (body: object) => {
        const response = await call(nurse, 'POST', '/api/assessments', body);
        expect(response.statusCode, response.body).toBe(201);
        return response.json<Assessment>();
      };
      const signOff = async (id: string, version: number) => {
        const response = await call(
          nurse,
          'POST',
          `/api/assessments/${id}/sign-off`,
          undefined,
          atVersion(version),
        );
        expect(response.statusCode, response.body).toBe(200);
      };
      const remove = async (id: string, version: number) => {
        const response = await call(
          admin,
          'DELETE',
          `/api/assessments/${id}`,
          undefined,
          atVersion(version),
        );
        expect(response.statusCode, response.body).toBe(204);
      };

      await undoThrough(t.database, liveCountAtCommit.name);
      const first = await save(highRiskBody);
      const second = await save(lowRiskBody);
      await signOff(first.id, first.version);
      await remove(second.id, second.version);
      expect(await liveCounts(t)).toEqual({ kept: [1, 1], counted: [1, 1] });

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(liveCountAtCommit)).map((migration) => migration.name),
      );
      expect(await liveCounts(t)).toEqual({ kept: [1, 1], counted: [1, 1] });

      const third = await save(highRiskBody);
      expect(await liveCounts(t)).toEqual({ kept: [2, 1], counted: [2, 1] });
      const restored = await call(admin, 'POST', `/api/assessments/${second.id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
      await signOff(third.id, third.version);
      expect(await liveCounts(t)).toEqual({ kept: [3, 2], counted: [3, 2] });
      await remove(first.id, first.version + 1);
      expect(await liveCounts(t)).toEqual({ kept: [2, 1], counted: [2, 1] });

      // A change that does not commit leaves the count as it was.
      await t.database.db
        .transaction()
        .execute(async (trx) => {
          await sql`update assessments set deleted_at = updated_at where id = ${third.id}`.execute(
            trx,
          );
          throw new Error('rolled back');
        })
        .catch((error: unknown) => {
          if (!(error instanceof Error) || error.message !== 'rolled back') throw error;
        });
      expect(await liveCounts(t)).toEqual({ kept: [2, 1], counted: [2, 1] });
    } finally {
      await t.close();
    }
  });
});

// Only PostgreSQL runs writers side by side; SQLite runs one at a time.
const postgresDatabases = testDatabases().filter((database) => database.engine === 'postgres');
for (const testDatabase of postgresDatabases) {
  describe('saves side by side on postgres', () => {
    it('lets a save commit while another change of an assessment is still open', async () => {
      const t = await openTestApp(testDatabase);
      try {
        const call = requestsAs(t);
        const nurse = await signedInAs(t, 'nurse');
        /** A save's outcome, or 'pending' when it has not finished within `waitMs`. */
        const saveWhileAnotherIsOpen = async (waitMs: number) => {
          const open = await call(nurse, 'POST', '/api/assessments', lowRiskBody);
          expect(open.statusCode, open.body).toBe(201);
          let outcome: number | 'pending' = 'pending';
          let later: Promise<number> | undefined;
          await t.database.db
            .transaction()
            .execute(async (trx) => {
              // An unfinished change that moves the live count (a removal, as an admin's would).
              await sql`update assessments set deleted_at = now() where id = ${open.json<Assessment>().id}`.execute(
                trx,
              );
              later = call(nurse, 'POST', '/api/assessments', lowRiskBody).then(
                (r) => r.statusCode,
              );
              outcome = await settledWithin(later, waitMs);
              throw new Error('rolled back');
            })
            .catch((error: unknown) => {
              if (!(error instanceof Error) || error.message !== 'rolled back') throw error;
            });
          expect(await later).toBe(201);
          return outcome;
        };

        // Before: the second save waited for the open change's commit (here, its rollback).
        await undoThrough(t.database, liveCountAtCommit.name);
        expect(await saveWhileAnotherIsOpen(300)).toBe('pending');
        await migrateToLatest(t.database);
        // After: it commits at once (the bound is for a busy machine, not a measure).
        expect(await saveWhileAnotherIsOpen(10_000)).toBe(201);
        expect(await liveCounts(t)).toEqual({ kept: [4, 0], counted: [4, 0] });
      } finally {
        await t.close();
      }
    });
  });
}
