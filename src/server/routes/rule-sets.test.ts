import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import guidelines20 from '../../engine/rule-sets/2.0.json' with { type: 'json' };
import type { Assessment } from '../../shared/api/assessments.ts';
import type { RuleSetSummary } from '../../shared/api/rule-sets.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

const trial = '2.0-dm2-bmi-0.25';
const trialTitle = 'Trial: DM2 BMI weight 0.25 (not the default guidelines)';

/**
 * DM2 with BMI > 25 (31.1), a family history and thirst: the BMI factor weighs 0.75 under 2.0 and
 * 0.25 under the trial. The status comes from the factor count (docs/SCORING.md rule 10), which a
 * weight does not change, so DM2 is High under both; its scores differ.
 */
const body = {
  demographics: { age: 40, gender: 'Male', height: 170, weight: 90 },
  riskFactors: { familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
};
const thirst = 0.75 * 1.75;

type Who = { cookie: string; userId: string; username: string };

describe.each(testDatabases())('rule set versions on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: Who;
  let doctor: Who;
  let admin: Who;

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
    admin = await signedInAs(t, 'admin', 'admin-ada');
  });
  afterAll(async () => {
    await t.close();
  });

  const list = async (who: Who) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/rule-sets',
      headers: { cookie: who.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<RuleSetSummary[]>();
  };
  const activate = (who: Who, version: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/rule-sets/active',
      headers: { cookie: who.cookie },
      payload: { version },
    });
  const save = async (method: 'POST' | 'PUT', url: string, headers: Record<string, string>) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { cookie: nurse.cookie, ...headers },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(method === 'POST' ? 201 : 200);
    return response.json<Assessment>();
  };
  const read = async (id: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/assessments/${id}`,
        headers: { cookie: nurse.cookie },
      })
    ).json<Assessment>();
  const storedVersions = async (id: string) =>
    (
      await t.database.db
        .selectFrom('results')
        .select('rule_set_version')
        .distinct()
        .where('assessment_id', '=', id)
        .execute()
    ).map((row) => row.rule_set_version);
  const dm2 = (assessment: Assessment) =>
    assessment.results.conditions.find((result) => result.condition === 'DM2');

  it('lists every version to every role, 2.0 active while no activation was recorded', async () => {
    for (const who of [nurse, doctor, admin]) {
      expect(await list(who)).toEqual([
        {
          version: '2.0',
          title: 'Clinical Guidelines Version 2.0',
          active: true,
          activeSince: null,
        },
        { version: trial, title: trialTitle, active: false, activeSince: null },
      ]);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/rule-sets' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('gives a whole rule set as its file holds it, and 404 for an unknown version', async () => {
    for (const who of [nurse, doctor, admin]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/rule-sets/2.0',
        headers: { cookie: who.cookie },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual(guidelines20);
    }
    const trialData = await t.app.inject({
      method: 'GET',
      url: `/api/rule-sets/${trial}`,
      headers: { cookie: nurse.cookie },
    });
    expect(
      trialData
        .json<typeof guidelines20>()
        .conditions.DM2.riskFactors.map((factor) => [factor.key, factor.weight]),
    ).toEqual([
      ['age50Plus', 3],
      ['bmiOver25', 0.25],
      ['familyHistory', 2.5],
    ]);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/rule-sets/1.0',
      headers: { cookie: nurse.cookie },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('lets only an administrator activate, and only a known version', async () => {
    for (const who of [nurse, doctor]) {
      const refused = await activate(who, trial);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { code: 'forbidden' } });
    }
    for (const version of ['1.0', '', 2]) {
      const invalid = await activate(admin, version);
      expect(invalid.statusCode, String(version)).toBe(400);
      expect(invalid.json()).toMatchObject({
        error: { code: 'validation_failed', field: 'version' },
      });
    }
    expect(await t.database.db.selectFrom('rule_set_activations').selectAll().execute()).toEqual(
      [],
    );
    expect((await list(nurse)).find((summary) => summary.active)?.version).toBe('2.0');
  });

  it('scores saves with the active version; a stored result keeps its own until updated', async () => {
    const before = await save('POST', '/api/assessments', {});
    expect(before.results.ruleSetVersion).toBe('2.0');
    expect(dm2(before)?.components.riskFactorScore).toBe(3.25);

    t.advance(60_000);
    const activated = await activate(admin, trial);
    expect(activated.statusCode, activated.body).toBe(200);
    const activeSince = '2026-11-22T09:01:00.000Z';
    expect(activated.json()).toEqual({
      version: trial,
      title: trialTitle,
      active: true,
      activeSince,
    });
    expect(await list(doctor)).toEqual([
      {
        version: '2.0',
        title: 'Clinical Guidelines Version 2.0',
        active: false,
        activeSince: null,
      },
      { version: trial, title: trialTitle, active: true, activeSince },
    ]);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['username', 'action', 'target_type', 'target_id', 'outcome', 'at'])
      .where('action', '=', 'rule_set_activate')
      .execute();
    expect(audit).toEqual([
      {
        username: 'admin-ada',
        action: 'rule_set_activate',
        target_type: 'rule_set',
        target_id: trial,
        outcome: 'success',
        at: activeSince,
      },
    ]);

    const after = await save('POST', '/api/assessments', {});
    expect(after.results.ruleSetVersion).toBe(trial);
    expect(await storedVersions(after.id)).toEqual([trial]);
    expect(dm2(after)?.components.riskFactorScore).toBe(2.75);
    expect(dm2(after)?.details.riskFactors).toContainEqual({ name: 'BMI > 25', weight: 0.25 });
    expect(dm2(after)?.totalScore).toBeCloseTo(2.75 + thirst, 12);
    expect(dm2(after)?.riskStatus).toBe(dm2(before)?.riskStatus);

    // The older assessment reads as it was scored, under 2.0, until it is updated.
    const reread = await read(before.id);
    expect(reread.results).toEqual(before.results);
    expect(await storedVersions(before.id)).toEqual(['2.0']);
    const report = await t.app.inject({
      method: 'GET',
      url: `/api/assessments/${before.id}/report.txt`,
      headers: { cookie: nurse.cookie },
    });
    expect(report.body).toContain('Rule set: Clinical Guidelines Version 2.0');

    const updated = await save('PUT', `/api/assessments/${before.id}`, { 'if-match': '"1"' });
    expect(updated.results.ruleSetVersion).toBe(trial);
    expect(await storedVersions(before.id)).toEqual([trial]);
    expect(dm2(updated)?.components.riskFactorScore).toBe(2.75);
    const updatedReport = await t.app.inject({
      method: 'GET',
      url: `/api/assessments/${before.id}/report.txt`,
      headers: { cookie: nurse.cookie },
    });
    expect(updatedReport.body).toContain(`Rule set: ${trialTitle}`);

    // The latest activation is in force: back to 2.0.
    t.advance(60_000);
    expect((await activate(admin, '2.0')).statusCode).toBe(200);
    const again = await save('POST', '/api/assessments', {});
    expect(again.results.ruleSetVersion).toBe('2.0');
    expect(dm2(again)?.components.riskFactorScore).toBe(3.25);
    expect((await list(nurse)).map((summary) => [summary.version, summary.activeSince])).toEqual([
      ['2.0', '2026-11-22T09:02:00.000Z'],
      [trial, null],
    ]);
  });

  it('is in the OpenAPI document with its schemas', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    type Operation = {
      tags?: string[];
      responses?: Record<string, unknown>;
      requestBody?: unknown;
    };
    const paths = document.json<{ paths: Record<string, Record<string, Operation>> }>().paths;
    expect(paths['/api/rule-sets']?.get?.tags).toEqual(['rule-sets']);
    expect(paths['/api/rule-sets']?.get?.responses).toHaveProperty('200');
    expect(paths['/api/rule-sets/{version}']?.get?.responses).toHaveProperty('404');
    expect(paths['/api/rule-sets/active']?.put?.requestBody).toBeDefined();
    expect(paths['/api/rule-sets/active']?.put?.responses).toHaveProperty('403');
  });

  it('refuses saves while the recorded active version is one this build does not know', async () => {
    t.advance(60_000);
    await t.database.db
      .insertInto('rule_set_activations')
      .values({
        id: 'ffffffff-ffff-7fff-bfff-ffffffffffff',
        version: '9.9',
        activated_at: t.context.now().toISOString(),
        activated_by: admin.userId,
      })
      .execute();
    expect((await list(nurse)).some((summary) => summary.active)).toBe(false);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: nurse.cookie },
      payload: body,
    });
    expect(refused.statusCode).toBe(500);
    expect(refused.json()).toMatchObject({
      error: {
        code: 'internal',
        message: expect.stringContaining(
          'The active rule set version 9.9 is not known to this server',
        ) as string,
      },
    });

    // An administrator mends it by activating a known version.
    t.advance(60_000);
    expect((await activate(admin, '2.0')).statusCode).toBe(200);
    const saved = await save('POST', '/api/assessments', {});
    expect(saved.results.ruleSetVersion).toBe('2.0');
  });

  it('takes parallel activations in turn: the newest activation audit row names the version in force', async () => {
    const newestAudited = async () =>
      (
        await t.database.db
          .selectFrom('audit_events')
          .select('target_id')
          .where('action', '=', 'rule_set_activate')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow()
      ).target_id;
    for (let round = 0; round < 5; round++) {
      t.advance(60_000);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) => activate(admin, index % 2 === 0 ? trial : '2.0')),
      );
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      const inForce = (await list(nurse)).find((summary) => summary.active)?.version;
      expect(await newestAudited(), `round ${round}`).toBe(inForce);
    }
  });

  it('makes the last of several activations in one millisecond the active one', async () => {
    t.advance(60_000);
    // The test's clock stands still: every activation below is made at the same instant.
    for (const version of [trial, '2.0', trial, '2.0']) {
      const activated = await activate(admin, version);
      expect(activated.statusCode, version).toBe(200);
      expect(activated.json()).toMatchObject({ version, active: true });
      expect((await list(nurse)).find((summary) => summary.active)?.version).toBe(version);
    }
  });
});
