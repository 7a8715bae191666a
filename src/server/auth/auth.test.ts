import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incorrectPasswordMessage } from '../../shared/api/session.ts';
import { loginDelayMs } from './login.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs, testPassword } from '../testing/users.ts';

const minute = 60_000;
const publicOperations = new Set([
  'POST /api/session',
  // Answers whether there is a session, 200 either way; it never says more than GET /api/session.
  'GET /api/session/status',
  'POST /api/session/second-factor',
  // The steps after the password: the challenge cookie, not a session, says who takes them.
  'POST /api/session/second-factor/enrolment',
  'POST /api/session/second-factor/confirmation',
  // Sign-in through the organisation's provider: it starts and returns without a session.
  'GET /api/session/oidc/start',
  'GET /api/session/oidc/callback',
  'GET /api/health',
  'GET /api/health/ready',
  'GET /fhir/metadata',
  // SMART Backend Services: the configuration is public, and a token request authenticates by
  // its signed assertion, not a session (an OAuth error without one, never a token).
  'GET /fhir/.well-known/smart-configuration',
  'POST /api/oauth/token',
  // CDS Hooks discovery is public; the service itself needs a record system's JWT (401 without).
  'GET /cds-services',
  // A launch from a record system, and its return: the launch's own cookie binds the browser;
  // the wizard it opens needs a session (GET /api/smart/launches/{id}).
  'GET /smart/launch',
  'GET /smart/callback',
]);

/** The gate's options without a provider: the password form alone. */
const signedOut = { oidc: null, localSignIn: true };

describe.each(testDatabases())('accounts and sessions on $engine', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(testDatabase);
  });
  afterAll(async () => {
    await t.close();
  });

  const signIn = (username: string, password: string, address = '10.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username, password },
      remoteAddress: address,
    });
  const whoAmI = (cookie: string) =>
    t.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } });
  const auditActions = async () =>
    await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'username', 'outcome'])
      .orderBy('id')
      .execute();

  it('answers 401 without a session on every operation of the OpenAPI document but sign-in and health', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(operations.length).toBeGreaterThan(5);
    for (const { method, path } of operations) {
      if (publicOperations.has(`${method} ${path}`)) continue;
      const url = path.replaceAll(/\{[^}]+\}/g, 'some-id');
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      });
      expect({ operation: `${method} ${path}`, status: response.statusCode }).toEqual({
        operation: `${method} ${path}`,
        status: 401,
      });
      // The FHIR API answers in FHIR: an OperationOutcome, not the product's envelope.
      if (path.startsWith('/fhir/')) {
        expect(response.json<{ issue: Array<{ code: string }> }>().issue[0]?.code).toBe('login');
      } else {
        expect(response.json<{ error: { code: string } }>().error.code).toBe('unauthenticated');
      }
    }
  });

  it('signs in with a cookie that is HttpOnly and SameSite=Strict, and stores only its hash', async () => {
    const { username } = await signedInAs(t, 'nurse');
    const response = await signIn(username, testPassword);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { username, role: 'nurse' } });
    const cookie = response.cookies.find((c) => c.name === 'triage_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(Buffer.from(cookie?.value ?? '', 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await t.database.db.selectFrom('sessions').select('id_hash').execute();
    expect(stored.map((s) => s.id_hash)).not.toContain(cookie?.value);
  });

  it('refuses a sign-in body over 16 KB with 413 before reading it, and counts nothing', async () => {
    const before = (await auditActions()).length;
    for (const url of ['/api/session', '/api/session/second-factor']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        payload: { username: 'someone', password: 'x'.repeat(16 * 1024), code: '1' },
        remoteAddress: '10.0.0.9',
      });
      expect(response.statusCode, url).toBe(413);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('bad_request');
    }
    expect((await auditActions()).length).toBe(before);
    // A sign-in of ordinary size is read and answered as before.
    expect((await signIn('someone', 'not-the-password-1', '10.0.0.9')).statusCode).toBe(401);
  });

  it('answers any failed sign-in with the one message', async () => {
    const { username } = await signedInAs(t, 'doctor');
    for (const [name, password] of [
      [username, 'wrong-password-here'],
      ['nobody-by-this-name', testPassword],
    ] as const) {
      const response = await signIn(name, password, '10.0.0.2');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { code: 'unauthenticated', message: incorrectPasswordMessage },
      });
    }
  });

  it('refuses a disabled account, and disabling ends its sessions', async () => {
    const admin = await signedInAs(t, 'admin');
    const nurse = await signedInAs(t, 'nurse');
    const disable = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${nurse.userId}`,
      headers: { cookie: admin.cookie },
      payload: { disabled: true },
    });
    expect(disable.statusCode).toBe(200);
    expect((await whoAmI(nurse.cookie)).statusCode).toBe(401);
    expect((await signIn(nurse.username, testPassword, '10.0.0.3')).statusCode).toBe(401);
  });

  it('says whether the cookie names a live session, 200 either way', async () => {
    const status = (cookie?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/session/status',
        ...(cookie === undefined ? {} : { headers: { cookie } }),
      });
    const none = await status();
    expect(none.statusCode).toBe(200);
    expect(none.headers['cache-control']).toBe('no-store');
    expect(none.json()).toEqual({ signedIn: false, signIn: signedOut });
    expect((await status('triage_session=not-a-session')).json()).toEqual({
      signedIn: false,
      signIn: signedOut,
    });

    const { cookie, username } = await signedInAs(t, 'doctor');
    const live = await status(cookie);
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ signedIn: true, ...(await whoAmI(cookie)).json() });
    expect(live.json()).toMatchObject({ user: { username, role: 'doctor' } });

    // Idle past the limit: ended here as GET /api/session would end it.
    t.advance(31 * minute);
    expect((await status(cookie)).json()).toEqual({ signedIn: false, signIn: signedOut });
    expect((await whoAmI(cookie)).statusCode).toBe(401);
  });

  it("gives the clinic's calendar with every session answer", async () => {
    const zoned = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    try {
      const { cookie, username } = await signedInAs(zoned, 'nurse');
      const signedIn = await zoned.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { username, password: testPassword },
      });
      expect(signedIn.json()).toMatchObject({ timeZone: 'Africa/Johannesburg' });
      const session = await zoned.app.inject({
        method: 'GET',
        url: '/api/session',
        headers: { cookie },
      });
      expect(session.json()).toMatchObject({ timeZone: 'Africa/Johannesburg' });
      const status = await zoned.app.inject({
        method: 'GET',
        url: '/api/session/status',
        headers: { cookie },
      });
      expect(status.json()).toMatchObject({ signedIn: true, timeZone: 'Africa/Johannesburg' });
    } finally {
      await zoned.close();
    }
    // The default calendar is UTC.
    const { cookie } = await signedInAs(t, 'nurse');
    expect((await whoAmI(cookie)).json()).toMatchObject({ timeZone: 'UTC' });
  });

  it('ends a session after 30 idle minutes', async () => {
    const { cookie } = await signedInAs(t, 'nurse');
    t.advance(29 * minute);
    expect((await whoAmI(cookie)).statusCode).toBe(200);
    t.advance(29 * minute);
    expect((await whoAmI(cookie)).statusCode).toBe(200);
    t.advance(30 * minute);
    expect((await whoAmI(cookie)).statusCode).toBe(401);
  });

  it('ends a session 12 hours after sign-in however busy', async () => {
    const { cookie } = await signedInAs(t, 'nurse');
    for (let hour = 0; hour < 11; hour++) {
      for (let step = 0; step < 3; step++) {
        t.advance(20 * minute);
        expect((await whoAmI(cookie)).statusCode).toBe(200);
      }
    }
    // 11 hours 59 minutes after sign-in, never idle for 30 minutes: still valid.
    for (const step of [20, 20, 19]) {
      t.advance(step * minute);
      expect((await whoAmI(cookie)).statusCode).toBe(200);
    }
    t.advance(2 * minute);
    expect((await whoAmI(cookie)).statusCode).toBe(401);
  });

  it('ends the session on the server at sign-out', async () => {
    const { cookie } = await signedInAs(t, 'doctor');
    const out = await t.app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    // The old cookie value, replayed, is worthless.
    expect((await whoAmI(cookie)).statusCode).toBe(401);
  });

  it('refuses a user name from an address for 15 minutes after 5 failures there', async () => {
    const { username } = await signedInAs(t, 'nurse');
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn(username, 'not-the-password', '10.0.1.1')).statusCode).toBe(401);
    }
    const refused = await signIn(username, testPassword, '10.0.1.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ error: { message: string } }>().error.message).toMatch(/15 minutes/);
    // Attempts refused during the window do not prolong it.
    t.advance(10 * minute);
    expect((await signIn(username, testPassword, '10.0.1.1')).statusCode).toBe(429);
    t.advance(6 * minute);
    expect((await signIn(username, testPassword, '10.0.1.1')).statusCode).toBe(200);
  });

  it('checks at most 5 of 50 parallel wrong passwords for one name from one address', async () => {
    const { username } = await signedInAs(t, 'nurse');
    const statuses = (
      await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          signIn(username, `wrong-password-${index}`, '10.0.3.1'),
        ),
      )
    ).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(45);
    const checked = await t.database.db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('username', '=', username)
      .where('action', '=', 'login_failed')
      .executeTakeFirstOrThrow();
    expect(Number(checked.n)).toBe(50);
    t.advance(16 * minute);
  });

  it("does not let a stranger's failures from other addresses keep the real user out", async () => {
    const { username } = await signedInAs(t, 'nurse');
    for (let attempt = 0; attempt < 5; attempt++) await signIn(username, 'a-guess-x', '10.0.4.1');
    expect((await signIn(username, 'a-guess-x', '10.0.4.1')).statusCode).toBe(429);
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await signIn(username, 'a-guess-x', '10.0.4.2')).statusCode).toBe(401);
    }
    // Seven failures of the name slow the real user's sign-in by a second, nothing more.
    expect((await signIn(username, testPassword, '10.0.4.3')).statusCode).toBe(200);
    t.advance(16 * minute);
  });

  it('limits failures per address across user names', async () => {
    for (let attempt = 0; attempt < 30; attempt++) {
      await signIn(`guess-${attempt}`, 'not-the-password', '10.9.9.9');
    }
    const { username } = await signedInAs(t, 'nurse');
    expect((await signIn(username, testPassword, '10.9.9.9')).statusCode).toBe(429);
    expect((await signIn(username, testPassword, '10.9.9.10')).statusCode).toBe(200);
    t.advance(16 * minute);
  });

  it('writes one audit row per sign-in, failed sign-in, sign-out and account change', async () => {
    const before = (await auditActions()).length;
    const admin = await signedInAs(t, 'admin', 'audit-admin');
    await signIn('audit-admin', 'wrong-password-x', '10.0.2.1');
    await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: admin.cookie },
      payload: { username: 'audit-nurse', role: 'nurse', password: 'plausibly-strong-phrase' },
    });
    await t.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie: admin.cookie },
    });
    const rows = (await auditActions()).slice(before);
    expect(rows).toEqual([
      { action: 'user_create', username: null, outcome: 'success' },
      { action: 'login', username: 'audit-admin', outcome: 'success' },
      { action: 'login_failed', username: 'audit-admin', outcome: 'failure' },
      { action: 'user_create', username: 'audit-admin', outcome: 'success' },
      { action: 'logout', username: 'audit-admin', outcome: 'success' },
    ]);
  });

  it('lets only admins manage users and read the audit trail', async () => {
    const admin = await signedInAs(t, 'admin');
    for (const role of ['nurse', 'doctor'] as const) {
      const { cookie } = await signedInAs(t, role);
      for (const [method, url] of [
        ['GET', '/api/users'],
        ['POST', '/api/users'],
        ['PATCH', `/api/users/${admin.userId}`],
        ['GET', '/api/audit'],
        ['GET', '/api/audit.csv'],
      ] as const) {
        const response = await t.app.inject({
          method,
          url,
          headers: { cookie },
          ...(method === 'GET' ? {} : { payload: {} }),
        });
        expect({ role, method, url, status: response.statusCode }).toEqual({
          role,
          method,
          url,
          status: 403,
        });
      }
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users', headers: { cookie: admin.cookie } }))
        .statusCode,
    ).toBe(200);
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/audit?action=login&limit=2',
      headers: { cookie: admin.cookie },
    });
    expect(audit.statusCode).toBe(200);
    const page = audit.json<{ items: { action: string }[]; nextBefore: number | null }>();
    expect(page.items.map((e) => e.action)).toEqual(['login', 'login']);
    expect(page.nextBefore).not.toBeNull();
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/audit.csv',
      headers: { cookie: admin.cookie },
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe(
      'id,at,user_id,username,action,target_type,target_id,outcome,address,detail',
    );
  });

  it('refuses state-changing requests a browser marks as cross-site', async () => {
    const { username } = await signedInAs(t, 'nurse');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username, password: testPassword },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(forged.statusCode).toBe(403);
    const foreignOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username, password: testPassword },
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(foreignOrigin.statusCode).toBe(403);
    const sameSite = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username, password: testPassword },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(sameSite.statusCode).toBe(200);
  });

  it('audits a change refused for want of permission, and a cross-site one', async () => {
    const nurse = await signedInAs(t, 'nurse', 'nurse-refused');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: nurse.cookie },
      payload: { username: 'someone', role: 'admin', password: 'a-long-enough-password' },
    });
    expect(refused.statusCode).toBe(403);
    const forged = await t.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie: nurse.cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(forged.statusCode).toBe(403);
    const readRefused = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { cookie: nurse.cookie },
    });
    expect(readRefused.statusCode).toBe(403);

    const rows = await t.database.db
      .selectFrom('audit_events')
      .select(['user_id', 'action', 'target_type', 'target_id', 'outcome'])
      .where('user_id', '=', nurse.userId)
      .where('action', '=', 'access_denied')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        user_id: nurse.userId,
        action: 'access_denied',
        target_type: 'route',
        target_id: 'POST /api/users',
        outcome: 'failure',
      },
      {
        user_id: nurse.userId,
        action: 'access_denied',
        target_type: 'route',
        target_id: 'DELETE /api/session',
        outcome: 'failure',
      },
    ]);
  });

  it('sends security headers, and no-store on API responses', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses weak passwords and duplicate user names', async () => {
    const admin = await signedInAs(t, 'admin');
    const create = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { cookie: admin.cookie },
        payload,
      });
    const weak = await create({ username: 'weak-one', role: 'nurse', password: 'password1234' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ error: { field: 'password' } });
    const short = await create({ username: 'short-one', role: 'nurse', password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: { field: 'password' } });
    expect(
      (await create({ username: 'twice', role: 'nurse', password: 'plausibly-strong-phrase' }))
        .statusCode,
    ).toBe(201);
    expect(
      (await create({ username: 'TWICE', role: 'doctor', password: 'plausibly-strong-phrase' }))
        .statusCode,
    ).toBe(409);
  });
});

describe('the sign-in delay for a user name failing from many addresses', () => {
  it('starts after 5 failures, doubles, and stops growing at 3 seconds', () => {
    expect([0, 4, 5, 6, 7, 8, 9, 50].map(loginDelayMs)).toEqual([
      0, 0, 250, 500, 1000, 2000, 3000, 3000,
    ]);
  });
});
