import { describe, expect, it } from 'vitest';
import { openTestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { fullCounts, keptCounts } from '../testing/kept-counts.ts';
import { signedInAs } from '../testing/users.ts';
import { seedAssessments } from './seed.ts';

describe.each(testDatabases())('the seed on $engine', (testDatabase) => {
  it('fills the kept counts as the services would, batch by batch', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const { userId } = await signedInAs(t, 'doctor', 'seeder', 'Seeder');
      const user = { id: userId, displayName: 'Seeder' };
      await seedAssessments(t.context, { assessments: 500, seed: 7, batchSize: 120, user });
      // A second seed adds to what is there, spread over facilities: kept per unit.
      await seedAssessments(t.context, {
        assessments: 200,
        patients: 80,
        units: 4,
        seed: 8,
        batchSize: 200,
        user,
      });
      const kept = await keptCounts(t.database);
      expect(kept).toEqual(await fullCounts(t.database));
      expect(kept.agreement.length).toBeGreaterThan(6);
      const unitsCounted = new Set(
        kept.population.map((row) => /org_unit_id=(\S+)/.exec(row)?.[1]),
      );
      // MAIN, where the first seed went, facilities and all units ('*').
      expect(unitsCounted.size).toBeGreaterThan(3);
    } finally {
      await t.close();
    }
  });

  it('keeps counts for a batch that touches more keys than SQLite takes parameters', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const { userId } = await signedInAs(t, 'doctor', 'seeder', 'Seeder');
      const user = { id: userId, displayName: 'Seeder' };
      // Over two years, 2,000 assessments in one transaction touch about 20,000 count keys.
      await seedAssessments(t.context, { assessments: 2000, seed: 9, batchSize: 2000, user });
      expect(await keptCounts(t.database)).toEqual(await fullCounts(t.database));
    } finally {
      await t.close();
    }
  });
});
