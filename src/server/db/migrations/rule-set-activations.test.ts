import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import type { RuleSetSummary } from '../../../shared/api/rule-sets.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { ruleSetActivations } from './20261125T0500-rule-set-activations.ts';

const body = {
  demographics: { age: 58, gender: 'Female', height: 165, weight: 80 },
  riskFactors: { familyHistory: { DM2: true } },
};

describe.each(testDatabases())('the rule-set-activations migration on $engine', (testDatabase) => {
  it('adds the activations to a database with assessments: 2.0 stays active until one is made', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const nurse = await signedInAs(t, 'nurse');
      const admin = await signedInAs(t, 'admin');
      const ids: string[] = [];
      for (let index = 0; index < 2; index++) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/assessments',
          headers: { cookie: nurse.cookie },
          payload: body,
        });
        expect(response.statusCode, response.body).toBe(201);
        ids.push(response.json<Assessment>().id);
      }
      const read = async (id: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/assessments/${id}`,
            headers: { cookie: nurse.cookie },
          })
        ).json<Assessment>();
      const before = await Promise.all(ids.map(read));

      // The database as the version before this migration made it, with these rows in it.
      await undoThrough(t.database, ruleSetActivations.name);
      // This test's schema only: on PostgreSQL introspection lists other tests' schemas too.
      const tables = async () =>
        (await t.database.db.introspection.getTables())
          .filter((table) => t.database.schema === undefined || table.schema === t.database.schema)
          .map((table) => table.name);
      expect(await tables()).not.toContain('rule_set_activations');

      // This migration first, then those after it (undone with it).
      expect((await migrateToLatest(t.database))[0]).toBe(ruleSetActivations.name);
      expect(await tables()).toContain('rule_set_activations');
      expect(await t.database.db.selectFrom('rule_set_activations').selectAll().execute()).toEqual(
        [],
      );
      expect(await Promise.all(ids.map(read))).toEqual(before);
      const listed = await t.app.inject({
        method: 'GET',
        url: '/api/rule-sets',
        headers: { cookie: nurse.cookie },
      });
      expect(
        listed.json<RuleSetSummary[]>().map((summary) => [summary.version, summary.active]),
      ).toEqual([
        ['2.0', true],
        ['2.0-dm2-bmi-0.25', false],
      ]);

      const activated = await t.app.inject({
        method: 'PUT',
        url: '/api/rule-sets/active',
        headers: { cookie: admin.cookie },
        payload: { version: '2.0-dm2-bmi-0.25' },
      });
      expect(activated.statusCode, activated.body).toBe(200);
      expect(
        await t.database.db
          .selectFrom('rule_set_activations')
          .select(['version', 'activated_by'])
          .execute(),
      ).toEqual([{ version: '2.0-dm2-bmi-0.25', activated_by: admin.userId }]);
      // Stored results keep the version they were scored with.
      expect((await read(ids[0] ?? '')).results.ruleSetVersion).toBe('2.0');
    } finally {
      await t.close();
    }
  });
});
