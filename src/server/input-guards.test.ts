import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './testing/app.ts';
import { testDatabases } from './testing/databases.ts';
import { signedInAs, testPassword } from './testing/users.ts';

const nul = '\u0000';

/** A 62-year-old woman whose management answers are nested three levels deep. */
const patient = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  management: { Hypertension: { diagnosed: true, lastDoctorVisit: 'never' } },
  notes: 'Seen at the clinic',
};

/** Where a request could leave a trace: records, accounts, sessions and the audit trail. */
const storedTables = [
  'users',
  'sessions',
  'audit_events',
  'patients',
  'assessments',
  'doctor_reviews',
] as const;

describe.each(testDatabases())('NUL characters in requests on $engine', (testDatabase) => {
  let t: TestApp;
  let admin: { cookie: string; username: string };
  let assessmentId: string;

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    admin = await signedInAs(t, 'admin', 'admin-ada', 'Ada Admin');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: admin.cookie },
      payload: patient,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    assessmentId = saved.json<{ id: string }>().id;
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const rowCounts = async () =>
    Object.fromEntries(
      await Promise.all(
        storedTables.map(async (table) => {
          const row = await t.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          return [table, Number(row.n)] as const;
        }),
      ),
    );
  const expectRefused = (
    response: { statusCode: number; body: string; json: <T>() => T },
    field?: string,
  ) => {
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json<{ error: { code: string; message: string; field?: string } }>();
    expect(error.code).toBe('validation_failed');
    expect(error.field).toBe(field);
    if (field !== undefined)
      expect(error.message).toBe(`${field}: Must not contain a NUL character`);
  };

  it('refuses a NUL in the path, encoded or not, naming the parameter', async () => {
    expectRefused(await send('GET', `/api/assessments/${assessmentId}%00`), 'id');
    expectRefused(await send('GET', '/api/assessments/%00/report.txt'), 'id');
    // A literal NUL reaches the server percent-encoded (Node's own parser refuses a raw one).
    expectRefused(await send('GET', `/api/assessments/${nul}${assessmentId}/report`), 'id');
    expectRefused(await send('PUT', `/api/assessments/%00`, patient), 'id');
  });

  it('refuses a NUL in the query string, naming the parameter', async () => {
    expectRefused(await send('GET', '/api/assessments?q=tb%00'), 'q');
    expectRefused(await send('GET', '/api/assessments/population?q=%00'), 'q');
    expectRefused(await send('GET', '/api/exports/assessments.csv?q=a%00b'), 'q');
    expectRefused(await send('GET', '/api/audit?user=admin-ada%00'), 'user');
    expectRefused(await send('GET', `/api/assessments?limit=5&q=x${nul}y`), 'q');
    // A NUL in a parameter's name cannot name the field.
    expectRefused(await send('GET', '/api/assessments?q%00=tb'));
  });

  it('still answers text that merely spells a percent sign and zeros', async () => {
    const response = await send('GET', '/api/assessments?q=%2500');
    expect(response.statusCode, response.body).toBe(200);
  });

  it('refuses a NUL in any string of a body, naming where it is, and stores nothing', async () => {
    const before = await rowCounts();
    expectRefused(
      await send('POST', '/api/assessments', { ...patient, notes: `a${nul}b` }),
      'notes',
    );
    expectRefused(
      await send('POST', '/api/assessments', {
        ...patient,
        management: { Hypertension: { diagnosed: true, lastDoctorVisit: `never${nul}` } },
      }),
      'management.Hypertension.lastDoctorVisit',
    );
    expectRefused(
      await send('PUT', `/api/assessments/${assessmentId}`, { ...patient, notes: nul }),
      'notes',
    );
    expectRefused(
      await send('POST', '/api/users', {
        username: 'nina-nurse',
        displayName: `Nina${nul}`,
        role: 'nurse',
        password: testPassword,
      }),
      'displayName',
    );
    // Strings the schema would not even read are refused too.
    expectRefused(
      await send('POST', '/api/assessments', { ...patient, extra: [1, [`${nul}`]] }),
      'extra.1.0',
    );
    expect(await rowCounts()).toEqual(before);
    const reread = await send('GET', `/api/assessments/${assessmentId}`);
    expect(reread.json<{ notes: string }>().notes).toBe(patient.notes);
  });

  it('refuses a NUL in a field name, naming the object that holds it', async () => {
    const before = await rowCounts();
    const response = await send('POST', '/api/assessments', {
      ...patient,
      demographics: { ...patient.demographics, [`age${nul}`]: 3 },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'validation_failed',
        message: 'demographics: Field names must not contain a NUL character',
        field: 'demographics',
      },
    });
    const atTop = await send('POST', '/api/assessments', { ...patient, [nul]: 1 });
    expectRefused(atTop);
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a NUL in the user name at sign-in with 400, however often, and never throttles', async () => {
    const before = await rowCounts();
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { username: `${admin.username}${nul}`, password: 'wrong' },
      });
      expectRefused(response, 'username');
    }
    expect(await rowCounts()).toEqual(before);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: admin.username, password: testPassword },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
  });

  it('leaves a deeply nested body to the schema', async () => {
    const depth = 100_000;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      payload: `{"notes":${'['.repeat(depth)}"${'\\u0000'}"${']'.repeat(depth)}}`,
    });
    expect(response.statusCode, response.body).toBe(400);
  });

  it('answers an unknown address 404, with or without a NUL', async () => {
    for (const url of ['/api/nothing', '/api/nothing%00', `/api/nothing?q=%00`]) {
      const response = await send('GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    const posted = await send('POST', '/api/nothing', { name: nul });
    expect(posted.statusCode).toBe(404);
  });
});
