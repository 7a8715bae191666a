import { sql } from 'kysely';
import { migrations } from './index.ts';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import { openTestApp, type TestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { fullCounts, keptCounts, pendingDeltas } from '../../testing/kept-counts.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { madeUnit } from '../../testing/org-units.ts';
import { atVersion, requestsAs } from '../../testing/requests.ts';
import { highRiskBody, lowRiskBody, moderateRiskBody } from '../../testing/risk-bodies.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { keptCountsRepository } from '../repositories/kept-counts.ts';
import { unitKeptCounts } from './20261128T1600-unit-kept-counts.ts';

const day = 24 * 3_600_000;

/** Saves in two units over two days, a finalized review in each, and a delete. */
async function changesInTwoUnits(t: TestApp, units: readonly [string, string]): Promise<void> {
  const call = requestsAs(t);
  for (const [index, unitId] of units.entries()) {
    const nurse = await signedInAs(t, 'nurse', undefined, undefined, [unitId]);
    const doctor = await signedInAs(t, 'doctor', undefined, undefined, [unitId]);
    const saved: Assessment[] = [];
    for (const body of [highRiskBody, moderateRiskBody, lowRiskBody].slice(index)) {
      const response = await call(nurse, 'POST', '/api/assessments', body);
      expect(response.statusCode, response.body).toBe(201);
      saved.push(response.json<Assessment>());
    }
    const [first, second] = saved as [Assessment, Assessment];
    const locked = await call(doctor, 'POST', `/api/assessments/${first.id}/review/lock`, {
      reviews: [
        { condition: 'DM2', agreed: index === 0, comments: '' },
        { condition: 'TB', agreed: false, comments: 'No', doctorStatus: 'MAYBE' },
      ],
    });
    expect(locked.statusCode, locked.body).toBe(200);
    const deleted = await call(
      nurse,
      'DELETE',
      `/api/assessments/${second.id}`,
      undefined,
      atVersion(second.version),
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
  }
}

/** Each kept row's unit, once, '*' (all units) among them. */
function unitsOf(rows: readonly string[]): (string | undefined)[] {
  return [...new Set(rows.map((row) => /org_unit_id=(\S+)/.exec(row)?.[1]))].sort();
}

describe.each(testDatabases())('the unit-kept-counts migration on $engine', (testDatabase) => {
  it('keys the counts of the version before by the unit of each assessment, exactly', async () => {
    const t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    try {
      const admin = await signedInAs(t, 'admin');
      const west = await madeUnit(t, admin, 'WEST');
      const east = await madeUnit(t, admin, 'EAST');
      await changesInTwoUnits(t, [west.id, east.id]);
      t.advance(day);
      await changesInTwoUnits(t, [east.id, west.id]);

      // The database as the version before made it: one count per key over every unit.
      await undoThrough(t.database, unitKeptCounts.name);
      const { rows } = await sql<{ local_date: string; n: number | string }>`
        select local_date, sum(n) as n from population_counts
        group by local_date order by local_date`.execute(t.database.db);
      // Three live assessments a day (two in one unit, one in the other), six results each.
      expect(rows.map((row) => [row.local_date, Number(row.n)])).toEqual([
        ['*', 36],
        ['2026-11-22', 18],
        ['2026-11-23', 18],
      ]);
      await expect(
        sql`select org_unit_id from population_counts`.execute(t.database.db),
      ).rejects.toThrow();

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(unitKeptCounts)).map((migration) => migration.name),
      );
      const deltas = await sql<{ n: number | string }>`select
          (select count(*) from population_count_deltas)
          + (select count(*) from agreement_count_deltas) as n`.execute(t.database.db);
      expect(Number(deltas.rows[0]?.n)).toBe(0);
      const migrated = await keptCounts(t.database);
      expect(migrated).toEqual(await fullCounts(t.database));
      expect(unitsOf(migrated.population)).toEqual(['*', west.id, east.id].sort());
      expect(unitsOf(migrated.agreement)).toEqual(['*', west.id, east.id].sort());

      // Changes from here are kept per unit, and stay exact once folded.
      t.advance(day);
      await changesInTwoUnits(t, [west.id, east.id]);
      expect(await pendingDeltas(t.database)).toBeGreaterThan(0);
      expect(await keptCounts(t.database)).toEqual(await fullCounts(t.database));
      await keptCountsRepository.compact(t.database);
      expect(await pendingDeltas(t.database)).toBe(0);
      expect(await keptCounts(t.database)).toEqual(await fullCounts(t.database));
    } finally {
      await t.close();
    }
  });
});
