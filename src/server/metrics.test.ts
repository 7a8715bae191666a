import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { createApiToken } from './services/api-tokens.ts';
import { openTestApp, type TestApp } from './testing/app.ts';
import { testDatabases } from './testing/databases.ts';
import { signedInAs } from './testing/users.ts';

const metricsToken = 'metrics-token-0123456789abcdef0123456789';

/** A 62-year-old woman, BMI 31.2, with a family history of diabetes, thirsty. */
const patient = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
};

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Reads the Prometheus text format's samples; a line that is neither comment nor sample fails. */
function samplesOf(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      expect(match, line).not.toBeNull();
      const [, name = '', labelText = '', value = ''] = match ?? [];
      const labels = Object.fromEntries(
        [...labelText.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(
          ([, key = '', text = '']) => [key, text],
        ),
      );
      // The format allows NaN (the event loop's lag before it was ever measured).
      expect(value, line).toMatch(/^(?:[+-]?Inf|NaN|Nan|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/);
      const number = value === '+Inf' ? Infinity : Number(value);
      return { name, labels, value: number };
    });
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

describe.each(testDatabases())('GET /api/metrics on $engine', (testDatabase) => {
  let t: TestApp;
  let admin: { cookie: string };
  let nurse: { cookie: string };

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { METRICS_TOKEN: metricsToken });
    admin = await signedInAs(t, 'admin');
    nurse = await signedInAs(t, 'nurse');
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = async (headers: Record<string, string> = { cookie: admin.cookie }) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/metrics', headers });
    expect(response.statusCode, response.body).toBe(200);
    return { text: response.body, samples: samplesOf(response.body), response };
  };
  const save = (count: number) =>
    Promise.all(
      Array.from({ length: count }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/assessments',
          headers: { cookie: nurse.cookie },
          payload: patient,
        }),
      ),
    );

  it('answers in the Prometheus text format with request, save, sign-in and process figures', async () => {
    const before = (await scrape()).samples;
    const saved = await save(3);
    for (const response of saved) expect(response.statusCode, response.body).toBe(201);
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'nobody-here', password: 'not the password at all' },
    });
    expect(failed.statusCode).toBe(401);

    const { text, samples, response } = await scrape();
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toContain('# TYPE triage_http_requests_total counter');
    expect(text).toContain('# TYPE triage_http_request_duration_seconds histogram');
    const created = { method: 'POST', route: '/api/assessments', status: '201' };
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(samples, name, labels) - valueOf(before, name, labels);
    expect(delta('triage_http_requests_total', created)).toBe(3);
    expect(delta('triage_http_request_duration_seconds_count', created)).toBe(3);
    expect(delta('triage_http_request_duration_seconds_bucket', { ...created, le: '+Inf' })).toBe(
      3,
    );
    expect(delta('triage_assessment_saves_total', { kind: 'create' })).toBe(3);
    expect(delta('triage_sign_ins_total', { step: 'password', outcome: 'failure' })).toBe(1);
    // The test's own two sign-ins, before the first scrape.
    expect(valueOf(samples, 'triage_sign_ins_total', { outcome: 'success' })).toBe(2);
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    if (testDatabase.engine === 'sqlite') {
      // Every commit stored at least one change, and all the saves were among them.
      const changes = valueOf(samples, 'triage_db_group_commit_changes_sum');
      const commits = valueOf(samples, 'triage_db_group_commit_changes_count');
      expect(commits).toBeGreaterThan(0);
      expect(changes).toBeGreaterThanOrEqual(3);
      expect(changes).toBeGreaterThanOrEqual(commits);
      expect(text).not.toContain('triage_db_pool_connections');
    } else {
      expect(text).toContain('# TYPE triage_db_pool_connections gauge');
      expect(valueOf(samples, 'triage_db_pool_connections')).toBeGreaterThan(0);
      expect(samples.some((s) => s.name === 'triage_db_pool_waiting_requests')).toBe(true);
      expect(text).not.toContain('triage_db_group_commit_changes');
    }
  });

  it('labels requests with the route pattern, never the ids or search text of the URL', async () => {
    const [created] = await save(1);
    const id = created?.json<{ id: string }>().id ?? '';
    expect(id).not.toBe('');
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/assessments/${id}`,
      headers: { cookie: nurse.cookie },
    });
    expect(read.statusCode).toBe(200);
    const search = await t.app.inject({
      method: 'GET',
      url: '/api/assessments?q=Okonkwo',
      headers: { cookie: nurse.cookie },
    });
    expect(search.statusCode).toBe(200);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/patients-of-Okonkwo' });
    expect(unknown.statusCode).toBe(404);

    const { text, samples } = await scrape();
    expect(text).not.toContain(id);
    expect(text).not.toContain('Okonkwo');
    const read200 = { method: 'GET', route: '/api/assessments/:id', status: '200' };
    expect(valueOf(samples, 'triage_http_requests_total', read200)).toBe(1);
    expect(valueOf(samples, 'triage_http_requests_total', { route: 'unmatched' })).toBe(1);
  });

  it('is read by an admin and with METRICS_TOKEN; refused to an API token and anyone else (401) and to a nurse (403)', async () => {
    await scrape({ authorization: `Bearer ${metricsToken}` });
    // API tokens are for other systems' FHIR reads: a live one does not read the metrics.
    const operator = { user: null, address: 'command line' };
    const { token } = await createApiToken(t.context, operator, 'prometheus');
    const cases: Array<[Record<string, string>, number]> = [
      [{ authorization: `Bearer ${token}` }, 401],
      [{}, 401],
      [{ cookie: nurse.cookie }, 403],
      [{ authorization: `Bearer ${metricsToken}x` }, 401],
      [{ authorization: metricsToken }, 401],
    ];
    for (const [headers, status] of cases) {
      const response = await t.app.inject({ method: 'GET', url: '/api/metrics', headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(status);
      expect(response.body).not.toContain('triage_http_requests_total');
    }
  });

  it('answers ready while the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', database: testDatabase.engine });
  });
});

describe('GET /api/health/ready with a database that does not answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    t = await openTestApp({
      engine: 'postgres',
      open: () =>
        Promise.resolve(openDatabase({ databaseUrl: `postgres://nobody@127.0.0.1:${port}/none` })),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 503 database_unavailable', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: { code: 'database_unavailable' } });
  });
});

describe('METRICS_TOKEN', () => {
  it('is refused when short enough to guess, naming the variable', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 32/);
    expect(loadConfig({ METRICS_TOKEN: metricsToken }).metricsToken).toBe(metricsToken);
  });
});
