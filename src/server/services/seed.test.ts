import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RISK_STATUSES } from '../../engine/index.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';
import { seedAssessments } from './seed.ts';

describe.each(testDatabases())('seeding on $engine', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    const { userId } = await signedInAs(t, 'nurse', 'seeder', 'Seeder');
    await seedAssessments(t.context, {
      assessments: 600,
      seed: 42,
      batchSize: 250,
      user: { id: userId, displayName: 'Seeder' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes the requested number of complete records', async () => {
    const db = t.database.db;
    const count = async (table: 'assessments' | 'patients' | 'results' | 'risk_factors') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('assessments')).toBe(600);
    expect(await count('patients')).toBe(600);
    expect(await count('risk_factors')).toBe(600);
    expect(await count('results')).toBe(600 * 6);
  });

  it('varies: every status, signed off, reviewed, deleted, notes with and without codes', async () => {
    const db = t.database.db;
    const statuses = await db.selectFrom('results').select('risk_status').distinct().execute();
    expect(statuses.map((s) => s.risk_status).sort()).toEqual([...RISK_STATUSES].sort());
    const flags = await db
      .selectFrom('assessments')
      .select(['signed_off', 'deleted_at', 'notes', 'assessment_complete'])
      .execute();
    const share = (test: (row: (typeof flags)[number]) => boolean) =>
      flags.filter(test).length / flags.length;
    expect(share((r) => Boolean(r.signed_off))).toBeGreaterThan(0.15);
    expect(share((r) => r.deleted_at !== null)).toBeGreaterThan(0);
    expect(share((r) => r.notes !== null && /[A-Z]\d\d\.\d/.test(r.notes))).toBeGreaterThan(0.05);
    expect(share((r) => r.notes === null)).toBeGreaterThan(0.2);
    expect(share((r) => !r.assessment_complete)).toBeGreaterThan(0.01);
    const reviews = await db.selectFrom('doctor_reviews').select('locked').execute();
    expect(reviews.length).toBeGreaterThan(0);
  });

  it('serves the seeded records through the API', async () => {
    const { cookie } = await signedInAs(t, 'nurse');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/assessments?limit=5',
      headers: { cookie },
    });
    expect(list.statusCode).toBe(200);
    const body = list.json<{ items: { id: string }[]; overallTotal: number }>();
    expect(body.overallTotal).toBeGreaterThan(550);
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/assessments/${body.items[0]?.id ?? ''}`,
      headers: { cookie },
    });
    expect(one.statusCode).toBe(200);
  });

  it('is reproducible from its seed', async () => {
    const first = await t.database.db
      .selectFrom('assessments')
      .select('assessment_code')
      .orderBy('assessment_code')
      .limit(3)
      .execute();
    const again = await openTestApp(testDatabase);
    try {
      const { userId } = await signedInAs(again, 'nurse', 'seeder', 'Seeder');
      await seedAssessments(again.context, {
        assessments: 600,
        seed: 42,
        batchSize: 600,
        user: { id: userId, displayName: 'Seeder' },
      });
      const second = await again.database.db
        .selectFrom('assessments')
        .select('assessment_code')
        .orderBy('assessment_code')
        .limit(3)
        .execute();
      expect(second).toEqual(first);
    } finally {
      await again.close();
    }
  });
});
