import { sql } from 'kysely';
import { everythingScope } from '../auth/scope.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RULE_SET } from '../../engine/index.ts';
import { auditListSchema } from '../../shared/api/audit.ts';
import {
  impactResultSchema,
  impactStreamLineSchema,
  type ImpactResult,
} from '../../shared/rule-set-impact.ts';
import { friendlyMessages } from '../../shared/texts.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';
import { ruleSetImpactRepository } from '../db/repositories/rule-set-impact.ts';
import { analyseRuleSetImpact } from '../services/rule-set-impact.ts';

const patient = {
  demographics: { age: 55, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { smoking: true, familyHistory: { DM2: true }, householdTBExposure: false },
  symptoms: { DM2: { fatigue: { present: true, severity: 'mild' } } },
};

describe.each(testDatabases())('POST /api/rule-sets/:version/impact on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let doctor: { cookie: string };
  let admin: { cookie: string; userId: string };
  const url = `/api/rule-sets/${DEFAULT_RULE_SET.version}/impact`;

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
    admin = await signedInAs(t, 'admin');
    // 300 assessments: more than one page of the analysis (250).
    for (let i = 0; i < 300; i++) {
      const saved = await t.app.inject({
        method: 'POST',
        url: '/api/assessments',
        headers: { cookie: nurse.cookie },
        payload: { ...patient, demographics: { ...patient.demographics, age: 20 + (i % 60) } },
      });
      expect(saved.statusCode, saved.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (
    who: { cookie: string },
    target: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: target,
      headers: { cookie: who.cookie, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });

  it('answers doctors and admins with the analysis as JSON, with or without a body, and audits it by version', async () => {
    for (const who of [doctor, admin]) {
      const response = await post(who, url, {});
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toContain('application/json');
      const result = impactResultSchema.parse(response.json());
      expect(result).toMatchObject({
        version: '2.0',
        title: DEFAULT_RULE_SET.name,
        from: null,
        to: null,
        assessments: 300,
      });
      expect(Object.keys(result.conditions)).toEqual([
        'DM2',
        'HIV',
        'TB',
        'Asthma',
        'Hypertension',
        'Hyperlipidaemia',
      ]);
      expect(Object.keys(result.conditions.DM2.matrix)).toEqual([
        'FALSE',
        'MAYBE',
        'TRUE',
        'DIAGNOSED',
        'UNKNOWN',
      ]);
      expect(result.conditions.DM2.matrix.TRUE.TRUE).toBe(300);
      expect(result.conditions.DM2.changed).toBe(0);
    }
    const withoutBody = await post(doctor, url);
    expect(withoutBody.statusCode, withoutBody.body).toBe(200);
    const dated = await post(doctor, url, { from: '2026-11-22', to: '2026-11-22' });
    expect(dated.json<ImpactResult>()).toMatchObject({
      from: '2026-11-22',
      to: '2026-11-22',
      assessments: 300,
    });

    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/audit?action=rule_set_impact',
      headers: { cookie: admin.cookie },
    });
    const events = auditListSchema.parse(audit.json()).items;
    expect(events).toHaveLength(4);
    expect(events[0]).toMatchObject({
      action: 'rule_set_impact',
      targetType: 'rule_set',
      targetId: '2.0',
      outcome: 'success',
    });
    expect(events.map((event) => event.userId)).toContain(admin.userId);
  });

  it('streams progress lines after each page, then the result, with Accept: application/x-ndjson', async () => {
    const response = await post(doctor, url, {}, { accept: 'application/x-ndjson' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((text) => impactStreamLineSchema.parse(JSON.parse(text)));
    expect(lines.slice(0, -1)).toEqual([
      { progress: { done: 250, total: 300 } },
      { progress: { done: 300, total: 300 } },
    ]);
    const json = await post(doctor, url, {});
    expect(lines.at(-1)).toEqual({ result: json.json<ImpactResult>() });
  });

  it('lets the event loop turn after every page, so that a server on node:sqlite answers other requests meanwhile', async () => {
    let running = true;
    let turns = 0;
    const pagesDone: number[] = [];
    const turn = () => {
      if (!running) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    await analyseRuleSetImpact(
      t.context,
      everythingScope,
      DEFAULT_RULE_SET,
      {},
      {
        onProgress: () => pagesDone.push(turns),
      },
    );
    running = false;
    // node:sqlite answers synchronously: without a yield, no turn would come between pages.
    expect(pagesDone).toHaveLength(2);
    expect(turns).toBeGreaterThan(pagesDone[0] ?? Infinity);
  });

  it('ends the stream with an error line, not a result, when the analysis fails midway', async () => {
    // Once the analysis is under way (its first page read), the next read of the results fails:
    // the table is away while the page is tallied, whatever the machine's speed.
    const pages = ruleSetImpactRepository.pages.bind(ruleSetImpactRepository);
    const spy = vi.spyOn(ruleSetImpactRepository, 'pages').mockImplementation(async function* (
      ...args
    ) {
      let first = true;
      for await (const page of pages(...args)) {
        yield page;
        if (first) {
          first = false;
          await sql`alter table results rename to results_away`.execute(t.database.db);
        }
      }
    });
    let response;
    try {
      response = await post(doctor, url, {}, { accept: 'application/x-ndjson' });
    } finally {
      spy.mockRestore();
      await sql`alter table results_away rename to results`.execute(t.database.db);
    }
    expect(response.statusCode).toBe(200);
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((text) => impactStreamLineSchema.parse(JSON.parse(text)));
    expect(lines.at(-1)).toEqual({
      error: { code: 'internal', message: friendlyMessages.unexpected },
    });
    expect(lines.slice(0, -1).every((line) => 'progress' in line)).toBe(true);
    // The database is whole again: the next analysis answers.
    expect((await post(doctor, url, {})).statusCode).toBe(200);
  });

  it('refuses nurses (403), an unknown version (404), and bad dates naming the field (400)', async () => {
    const refused = await post(nurse, url, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'forbidden' } });

    const unknown = await post(doctor, '/api/rule-sets/9.9/impact', {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    const unknownStreamed = await post(
      doctor,
      '/api/rule-sets/9.9/impact',
      {},
      { accept: 'application/x-ndjson' },
    );
    expect(unknownStreamed.statusCode).toBe(404);

    for (const [body, field] of [
      [{ from: '2026-11-23', to: '2026-11-22' }, 'to'],
      [{ from: '2026-02-30' }, 'from'],
      [{ to: 'yesterday' }, 'to'],
      [{ from: '2026-11-22', patient: 'x' }, ''],
    ] as const) {
      const response = await post(doctor, url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const { error } = response.json<{ error: { code: string; field?: string } }>();
      expect(error.code).toBe('validation_failed');
      if (field !== '') expect(error.field).toBe(field);
    }
  });

  it('is in the OpenAPI document', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const paths = document.json<{ paths: Record<string, { post?: { summary?: string } }> }>().paths;
    expect(paths['/api/rule-sets/{version}/impact']?.post?.summary).toMatch(/^Re-score/);
  });
});
