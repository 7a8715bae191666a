import { describe, expect, it } from 'vitest';
import type { Assessment, AssessmentBody } from '../../../shared/api/assessments.ts';
import type { Population } from '../../../shared/api/population.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { fullCounts, keptCounts } from '../../testing/kept-counts.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { orgUnitsRepository } from '../repositories/org-units.ts';
import { keptCounts as keptCountsMigration } from './20261125T0400-kept-counts.ts';
import { keptCountTotals } from './20261125T0410-kept-count-totals.ts';

const day = 24 * 3_600_000;

const bodies: AssessmentBody[] = [
  {
    demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
    riskFactors: { familyHistory: { DM2: true } },
    symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
    management: { Hypertension: { diagnosed: true } },
  },
  {
    demographics: { age: 30, gender: 'Male', height: 175, weight: 70 },
    symptoms: { Asthma: { wheezing: { present: true, severity: 'severe' } } },
  },
  {},
  { demographics: { age: 41, gender: 'Male', height: 170, weight: 90 } },
];

describe.each(testDatabases())('the kept-counts migrations on $engine', (testDatabase) => {
  it('fills the kept counts from the stored assessments and finalized reviews', async () => {
    const t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    try {
      let doctor = await signedInAs(t, 'doctor');
      const ids: string[] = [];
      for (const [index, body] of bodies.entries()) {
        if (index === 2) {
          t.advance(day);
          doctor = await signedInAs(t, 'doctor');
        }
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/assessments',
          headers: { cookie: doctor.cookie },
          payload: body,
        });
        expect(response.statusCode, response.body).toBe(201);
        ids.push(response.json<Assessment>().id);
      }
      const [first = '', second = '', third = ''] = ids;
      // A finalized review with an agreement and disagreements, one of them giving a status; one
      // saved but not finalized; one on an assessment deleted since.
      for (const [id, lock] of [
        [first, true],
        [second, false],
        [third, true],
      ] as const) {
        const response = await t.app.inject({
          method: lock ? 'POST' : 'PUT',
          url: `/api/assessments/${id}/review${lock ? '/lock' : ''}`,
          headers: { cookie: doctor.cookie },
          payload: {
            reviews: [
              { condition: 'DM2', agreed: true, comments: '' },
              { condition: 'HIV', agreed: false, comments: 'Too high', doctorStatus: 'FALSE' },
              { condition: 'TB', agreed: false, comments: '' },
            ],
          },
        });
        expect(response.statusCode, response.body).toBe(200);
      }
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/api/assessments/${third}`,
        headers: { cookie: doctor.cookie, 'if-match': '"1"' },
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
      const population = async (query: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/assessments/population${query}`,
            headers: { cookie: doctor.cookie },
          })
        ).json<Population>();
      const before = [await population(''), await population('?from=2026-11-23')];

      // The database as it was before the all-time rows, then before the kept counts, with these
      // rows in it.
      await undoThrough(t.database, keptCountTotals.name);
      expect(await migrateToLatest(t.database)).toContain(keptCountTotals.name);
      expect(await keptCounts(t.database)).toEqual(await fullCounts(t.database));
      expect([await population(''), await population('?from=2026-11-23')]).toEqual(before);

      await undoThrough(t.database, keptCountsMigration.name);
      expect(await migrateToLatest(t.database)).toEqual(
        expect.arrayContaining([keptCountsMigration.name, keptCountTotals.name]),
      );

      const kept = await keptCounts(t.database);
      expect(kept).toEqual(await fullCounts(t.database));
      // Every assessment here is in the unit MAIN (migration org-units): its rows are those of
      // all units ('*', migration unit-kept-counts).
      const main = await orgUnitsRepository.findMain(t.database.db);
      const mainRows = kept.agreement.filter((row) => row.includes(` org_unit_id=${main?.id} `));
      expect(kept.agreement.filter((row) => row.includes(' org_unit_id=* '))).toEqual(
        mainRows.map((row) => row.replace(` org_unit_id=${main?.id} `, ' org_unit_id=* ')),
      );
      expect(mainRows.map((row) => row.replace(` org_unit_id=${main?.id} `, ' '))).toEqual([
        'local_date=* condition=DM2 rule_status=TRUE doctor_status= agreed=1 n=1',
        'local_date=* condition=HIV rule_status=FALSE doctor_status=FALSE agreed=0 n=1',
        'local_date=* condition=TB rule_status=FALSE doctor_status= agreed=0 n=1',
        'local_date=2026-11-22 condition=DM2 rule_status=TRUE doctor_status= agreed=1 n=1',
        'local_date=2026-11-22 condition=HIV rule_status=FALSE doctor_status=FALSE agreed=0 n=1',
        'local_date=2026-11-22 condition=TB rule_status=FALSE doctor_status= agreed=0 n=1',
      ]);
      // Two days of live assessments, each condition on each day.
      expect(kept.population.length).toBeGreaterThanOrEqual(18);
      expect([await population(''), await population('?from=2026-11-23')]).toEqual(before);
    } finally {
      await t.close();
    }
  });
});
