import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecondFactorEnrolment } from '../../shared/api/second-factor.ts';
import { oidcSignInErrors, passwordSignInOffMessage } from '../../shared/api/session.ts';
import { usersRepository } from '../db/repositories/users.ts';
import { providerDidSecondFactor, roleFromClaims } from './oidc.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { createOrgUnit } from '../services/org-units.ts';
import { createUser, updateUser } from '../services/users.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../testing/oidc-provider.ts';
import { testPassword } from '../testing/users.ts';

const publicUrl = 'http://triage.test';

let provider: TestOidcProvider;
beforeAll(async () => {
  provider = await startTestOidcProvider(publicUrl);
});
afterAll(async () => {
  await provider.close();
});

/** The browser's walk: the product's start, the provider's pages, up to its redirect back. */
async function toProviderAndBack(t: TestApp): Promise<{ binding: string; callbackQuery: string }> {
  const start = await t.app.inject({ method: 'GET', url: '/api/session/oidc/start' });
  expect(start.statusCode, start.body).toBe(302);
  const binding = start.cookies.find((cookie) => cookie.name === 'triage_oidc');
  expect(binding).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/session/oidc' });
  const jar = new Map<string, string>();
  let url = new URL(String(start.headers.location));
  expect(url.origin).toBe(provider.issuer);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  for (let hops = 0; hops < 10; hops++) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const equals = pair.indexOf('=');
      jar.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    const location = response.headers.get('location');
    if (location === null)
      throw new Error(`The provider stopped at ${url.href}: ${response.status}`);
    url = new URL(location, url);
    if (url.origin === publicUrl) {
      expect(url.pathname).toBe('/api/session/oidc/callback');
      return { binding: binding?.value ?? '', callbackQuery: url.search };
    }
  }
  throw new Error('The provider never sent the browser back');
}

function callback(t: TestApp, query: string, binding: string | undefined) {
  return t.app.inject({
    method: 'GET',
    url: `/api/session/oidc/callback${query}`,
    ...(binding === undefined ? {} : { cookies: { triage_oidc: binding } }),
  });
}

/** A whole sign-in through the provider as `sub`: the callback's answer. */
async function signInAs(t: TestApp, sub: string): Promise<LightMyRequestResponse> {
  provider.signInAs = sub;
  const { binding, callbackQuery } = await toProviderAndBack(t);
  return callback(t, callbackQuery, binding);
}

function cookieOf(response: LightMyRequestResponse, name: string): string | undefined {
  const cookie = response.cookies.find((c) => c.name === name && c.value !== '');
  return cookie === undefined ? undefined : `${name}=${cookie.value}`;
}

async function sessionOf(t: TestApp, response: LightMyRequestResponse) {
  const cookie = cookieOf(response, 'triage_session');
  if (cookie === undefined) return undefined;
  const answer = await t.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } });
  return answer.statusCode === 200
    ? answer.json<{ user: { id: string; username: string; displayName: string; role: string } }>()
    : undefined;
}

async function auditRows(t: TestApp, action: string) {
  return t.database.db
    .selectFrom('audit_events')
    .select(['user_id', 'username', 'outcome', 'detail'])
    .where('action', '=', action)
    .orderBy('id')
    .execute();
}

let subjects = 0;
/** A fresh subject at the provider with the given role values. */
function account(
  roles: string[],
  extra: Partial<Parameters<TestOidcProvider['setAccount']>[0]> = {},
) {
  const sub = `subject-${++subjects}-${Math.random().toString(36).slice(2, 8)}`;
  provider.setAccount({
    sub,
    claims: {
      preferred_username: `Nia.Okafor${subjects}`,
      name: `Nia Okafor ${subjects}`,
      email: `nia${subjects}@clinic.example`,
      roles,
    },
    ...extra,
  });
  return sub;
}

describe.each(testDatabases())('sign-in through OpenID Connect on $engine', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(testDatabase, {
      ...provider.env(publicUrl),
      MFA_REQUIRED_ROLES: 'admin',
      MFA_GRACE_DAYS: '0',
      OIDC_MFA_ACR: 'urn:test:mfa',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it("makes a nurse's account at the first sign-in, with the role from the claims, and signs them in", async () => {
    const sub = account(['clinic-nurse', 'unrelated-group']);
    const response = await signInAs(t, sub);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${publicUrl}/`);
    expect(cookieOf(response, 'triage_session')).toBeDefined();
    const session = await sessionOf(t, response);
    expect(session?.user.role).toBe('nurse');
    expect(session?.user.displayName).toMatch(/^Nia Okafor/);
    expect(session?.user.username).toMatch(/^nia\.okafor\d+$/);
    const user = await usersRepository.findByOidcSubject(t.database.db, sub);
    expect(user).toMatchObject({
      role: 'nurse',
      username: session?.user.username,
      disabled: false,
    });

    const logins = (await auditRows(t, 'login')).filter((row) => row.user_id === user?.id);
    expect(logins).toEqual([
      expect.objectContaining({
        outcome: 'success',
        detail: `method=oidc issuer=${provider.issuer}`,
      }),
    ]);
    // The ID token is kept with the session (for the provider's sign-out), nowhere else.
    const sessions = await t.database.db
      .selectFrom('sessions')
      .select('id_token')
      .where('user_id', '=', user?.id ?? '')
      .execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.id_token).toMatch(/^ey/);
  });

  it('gives the role the claims hold at every later sign-in', async () => {
    const sub = account(['clinic-nurse']);
    const first = await signInAs(t, sub);
    expect((await sessionOf(t, first))?.user.role).toBe('nurse');
    provider.setAccount({
      sub,
      claims: { preferred_username: 'changed', roles: ['clinic-doctor'] },
    });
    const second = await signInAs(t, sub);
    expect((await sessionOf(t, second))?.user.role).toBe('doctor');
    // The nurse's session ended with the old role; the account is the same one.
    expect(await sessionOf(t, first)).toBeUndefined();
    const user = await usersRepository.findByOidcSubject(t.database.db, sub);
    expect(user?.role).toBe('doctor');
    expect(user?.username).toMatch(/^nia\.okafor/);
    expect((await auditRows(t, 'user_update')).at(-1)?.detail).toContain('role nurse -> doctor');
  });

  it('refuses a subject whose claims map to no role, with the sentence and an audit row naming only sub', async () => {
    const sub = account(['visitor']);
    const response = await signInAs(t, sub);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${publicUrl}/?signInError=noRole`);
    expect(oidcSignInErrors.noRole).toBe(
      'Your account has no role in this system. Ask your administrator.',
    );
    expect(cookieOf(response, 'triage_session')).toBeUndefined();
    expect(await usersRepository.findByOidcSubject(t.database.db, sub)).toBeUndefined();
    const refused = (await auditRows(t, 'login_failed')).at(-1);
    expect(refused).toMatchObject({ outcome: 'failure', user_id: null });
    expect(refused?.detail).toBe(
      `method=oidc issuer=${provider.issuer} sub=${sub} refused: no role in OIDC_ROLE_MAP`,
    );
    expect(refused?.detail).not.toMatch(/nia|okafor|visitor|ey[A-Za-z0-9_-]{10}/i);
  });

  it('refuses a disabled account whatever the provider says', async () => {
    const sub = account(['clinic-doctor'], { amr: ['pwd', 'mfa'] });
    expect(await sessionOf(t, await signInAs(t, sub))).toBeDefined();
    const user = await usersRepository.findByOidcSubject(t.database.db, sub);
    await updateUser(t.context, { user: null, address: null }, user?.id ?? '', { disabled: true });
    const response = await signInAs(t, sub);
    expect(response.headers.location).toBe(`${publicUrl}/?signInError=disabled`);
    expect(cookieOf(response, 'triage_session')).toBeUndefined();
    expect((await auditRows(t, 'login_failed')).at(-1)).toMatchObject({
      user_id: user?.id,
      detail: `method=oidc issuer=${provider.issuer} sub=${sub} refused: the account is disabled`,
    });
  });

  it('refuses a tampered state, a replayed callback, another browser and the provider saying no', async () => {
    const sub = account(['clinic-nurse']);
    provider.signInAs = sub;
    const tampered = await toProviderAndBack(t);
    const query = new URLSearchParams(tampered.callbackQuery);
    query.set('state', `${query.get('state')}x`);
    const refused = await callback(t, `?${query.toString()}`, tampered.binding);
    expect(refused.headers.location).toBe(`${publicUrl}/?signInError=failed`);
    expect(cookieOf(refused, 'triage_session')).toBeUndefined();
    // The sign-in it began is gone: the right state does not work after a wrong one.
    const after = await callback(t, tampered.callbackQuery, tampered.binding);
    expect(after.headers.location).toBe(`${publicUrl}/?signInError=expired`);

    const good = await toProviderAndBack(t);
    const once = await callback(t, good.callbackQuery, good.binding);
    expect(await sessionOf(t, once)).toBeDefined();
    const replayed = await callback(t, good.callbackQuery, good.binding);
    expect(replayed.headers.location).toBe(`${publicUrl}/?signInError=expired`);
    expect(cookieOf(replayed, 'triage_session')).toBeUndefined();

    // The provider's answer brought to a browser that did not start the sign-in.
    const stolen = await toProviderAndBack(t);
    const elsewhere = await callback(t, stolen.callbackQuery, undefined);
    expect(elsewhere.headers.location).toBe(`${publicUrl}/?signInError=expired`);

    provider.denyNext = true;
    const denied = await toProviderAndBack(t);
    const deniedAnswer = await callback(t, denied.callbackQuery, denied.binding);
    expect(deniedAnswer.headers.location).toBe(`${publicUrl}/?signInError=denied`);
    expect((await auditRows(t, 'login_failed')).at(-1)?.detail).toBe(
      `method=oidc issuer=${provider.issuer} refused by the provider: access_denied`,
    );
  });

  it("lets a provider's second factor (amr or OIDC_MFA_ACR) stand for the one an admin needs, else asks for the local one", async () => {
    const withMfa = await signInAs(t, account(['triage-admin'], { amr: ['pwd', 'mfa'] }));
    expect((await sessionOf(t, withMfa))?.user.role).toBe('admin');
    const withAcr = await signInAs(t, account(['triage-admin'], { acr: 'urn:test:mfa' }));
    expect((await sessionOf(t, withAcr))?.user.role).toBe('admin');

    // Without one, the admin (no grace, no factor yet) sets up the local second factor first.
    const sub = account(['triage-admin'], { amr: ['pwd'] });
    const withoutMfa = await signInAs(t, sub);
    expect(withoutMfa.headers.location).toBe(`${publicUrl}/?signInStep=second-factor-enrolment`);
    expect(cookieOf(withoutMfa, 'triage_session')).toBeUndefined();
    const challenge = cookieOf(withoutMfa, 'triage_second_factor');
    expect(challenge).toBeDefined();
    const enrolment = await t.app.inject({
      method: 'POST',
      url: '/api/session/second-factor/enrolment',
      headers: { cookie: challenge },
    });
    const { secret } = enrolment.json<SecondFactorEnrolment>();
    const code = () =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: t.context.now().getTime() });
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/session/second-factor/confirmation',
      headers: { cookie: challenge },
      payload: { code: code() },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await sessionOf(t, confirmed)).toBeDefined();

    // Enrolled now: the next sign-in without the provider's factor asks for the code.
    t.advance(60_000);
    const next = await signInAs(t, sub);
    expect(next.headers.location).toBe(`${publicUrl}/?signInStep=second-factor`);
    const answered = await t.app.inject({
      method: 'POST',
      url: '/api/session/second-factor',
      headers: { cookie: cookieOf(next, 'triage_second_factor') },
      payload: { code: code() },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    // The sign-in is still the provider's: audited so, and its session can sign out there.
    const user = await usersRepository.findByOidcSubject(t.database.db, sub);
    const logins = (await auditRows(t, 'login')).filter((row) => row.user_id === user?.id);
    expect(logins.map((row) => row.detail)).toEqual([
      `method=oidc issuer=${provider.issuer}`,
      `method=oidc issuer=${provider.issuer}`,
    ]);
    const signOut = await t.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie: cookieOf(answered, 'triage_session') },
    });
    expect(signOut.statusCode).toBe(200);
  });

  it('takes an account made for its subject beforehand (triage user add --oidc-subject)', async () => {
    const sub = account(['clinic-doctor']);
    const made = await createUser(
      t.context,
      { user: null, address: null },
      { username: 'dr-mensah', role: 'nurse', password: testPassword, oidcSubject: sub },
    );
    const session = await sessionOf(t, await signInAs(t, sub));
    expect(session?.user).toMatchObject({ id: made.id, username: 'dr-mensah', role: 'doctor' });
  });

  it("signs out at the provider's end_session_endpoint with id_token_hint and a return to the gate", async () => {
    const response = await signInAs(t, account(['clinic-nurse']));
    const cookie = cookieOf(response, 'triage_session');
    const signOut = await t.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie },
    });
    expect(signOut.statusCode).toBe(200);
    const url = new URL(signOut.json<{ providerSignOutUrl: string }>().providerSignOutUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${publicUrl}/`);
    expect(url.searchParams.get('id_token_hint')).toMatch(/^ey/);
    // The local session has ended.
    expect(await sessionOf(t, response)).toBeUndefined();
    // The provider accepts the hint and the return address: it asks to confirm the sign-out.
    const atProvider = await fetch(url, { redirect: 'manual' });
    expect(atProvider.status).toBe(200);
    expect(await atProvider.text()).toMatch(/logout/i);

    // A password sign-in's sign-out stays local.
    await createUser(
      t.context,
      { user: null, address: null },
      { username: 'local-nurse', role: 'nurse', password: testPassword },
    );
    const local = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'local-nurse', password: testPassword },
    });
    const localOut = await t.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie: cookieOf(local, 'triage_session') },
    });
    expect(localOut.statusCode).toBe(204);
    expect((await auditRows(t, 'login')).at(-1)?.detail).toBe('method=password');
  });

  it('tells the signed-out gate how to offer sign-in', async () => {
    const status = await t.app.inject({ method: 'GET', url: '/api/session/status' });
    expect(status.json()).toEqual({
      signedIn: false,
      signIn: { oidc: { displayName: 'your organisation' }, localSignIn: true },
    });
  });
});

describe.each(testDatabases())('LOCAL_SIGN_IN=false on $engine', (testDatabase) => {
  it('refuses passwords except break-glass accounts, and the gate hides the form', async () => {
    const t = await openTestApp(testDatabase, {
      ...provider.env(publicUrl),
      LOCAL_SIGN_IN: 'false',
      OIDC_DISPLAY_NAME: 'Ministry of Health',
    });
    try {
      const requester = { user: null, address: null };
      await createUser(t.context, requester, {
        username: 'nurse-local',
        role: 'nurse',
        password: testPassword,
      });
      await createUser(t.context, requester, {
        username: 'break-glass',
        role: 'admin',
        password: testPassword,
        breakGlass: true,
      });
      const signIn = (username: string, password = testPassword) =>
        t.app.inject({ method: 'POST', url: '/api/session', payload: { username, password } });

      const refused = await signIn('nurse-local');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { message: passwordSignInOffMessage } });
      expect(cookieOf(refused, 'triage_session')).toBeUndefined();
      const refusal = (await auditRows(t, 'login_failed')).at(-1);
      expect(refusal?.username).toBe('nurse-local');
      expect(refusal?.detail).toContain('LOCAL_SIGN_IN is false');
      // A wrong password is answered as ever: the refusal above tells a stranger nothing.
      expect((await signIn('nurse-local', 'not-the-password-at-all')).statusCode).toBe(401);

      const breakGlass = await signIn('break-glass');
      expect(breakGlass.statusCode, breakGlass.body).toBe(200);
      expect(cookieOf(breakGlass, 'triage_session')).toBeDefined();

      // The provider still signs people in.
      expect(await sessionOf(t, await signInAs(t, account(['clinic-nurse'])))).toBeDefined();

      const status = await t.app.inject({ method: 'GET', url: '/api/session/status' });
      expect(status.json()).toEqual({
        signedIn: false,
        signIn: { oidc: { displayName: 'Ministry of Health' }, localSignIn: false },
      });
    } finally {
      await t.close();
    }
  });
});

describe.each(testDatabases())('units from the provider on $engine', (testDatabase) => {
  const operator = { user: null, address: null };
  async function unitCodesOf(t: TestApp, sub: string): Promise<string[]> {
    const user = await usersRepository.findByOidcSubject(t.database.db, sub);
    const units = await orgUnitsRepository.unitsOfUsers(t.database.db, [user?.id ?? '']);
    return units.map((unit) => unit.code);
  }

  it('takes the units OIDC_UNIT_CLAIM names at every sign-in, and refuses a subject it names none for', async () => {
    const t = await openTestApp(testDatabase, {
      ...provider.env(publicUrl),
      OIDC_UNIT_CLAIM: 'units',
    });
    try {
      const main = await orgUnitsRepository.findByCode(t.database.db, 'MAIN');
      for (const code of ['FAC-A', 'FAC-B']) {
        await createOrgUnit(t.context, operator, { code, name: code, parentId: main?.id ?? null });
      }
      // Codes are compared without case; a code no unit has is left out.
      const sub = account(['clinic-nurse'], {});
      provider.setAccount({
        sub,
        claims: {
          preferred_username: 'unit.nurse',
          roles: ['clinic-nurse'],
          units: ['fac-a', 'NOPE'],
        },
      });
      expect(await sessionOf(t, await signInAs(t, sub))).toBeDefined();
      expect(await unitCodesOf(t, sub)).toEqual(['FAC-A']);

      // The organisation moves the nurse: the next sign-in says so, audited.
      provider.setAccount({
        sub,
        claims: { preferred_username: 'unit.nurse', roles: ['clinic-nurse'], units: 'FAC-B FAC-A' },
      });
      expect(await sessionOf(t, await signInAs(t, sub))).toBeDefined();
      expect(await unitCodesOf(t, sub)).toEqual(['FAC-A', 'FAC-B']);
      expect((await auditRows(t, 'user_update')).at(-1)?.detail).toBe(
        `method=oidc issuer=${provider.issuer} units from units`,
      );

      // Claims that name no unit of this system: refused, with the sentence, the account kept.
      provider.setAccount({
        sub,
        claims: { preferred_username: 'unit.nurse', roles: ['clinic-nurse'], units: ['ELSEWHERE'] },
      });
      const refused = await signInAs(t, sub);
      expect(refused.headers.location).toBe(`${publicUrl}/?signInError=noUnit`);
      expect(cookieOf(refused, 'triage_session')).toBeUndefined();
      expect(await unitCodesOf(t, sub)).toEqual(['FAC-A', 'FAC-B']);
      expect((await auditRows(t, 'login_failed')).at(-1)?.detail).toBe(
        `method=oidc issuer=${provider.issuer} sub=${sub} refused: no unit (OIDC_UNIT_CLAIM names no unit of this system)`,
      );
    } finally {
      await t.close();
    }
  });

  it('without OIDC_UNIT_CLAIM: the one unit while there is one; with several, only an account an administrator made', async () => {
    const t = await openTestApp(testDatabase, provider.env(publicUrl));
    try {
      const first = account(['clinic-doctor']);
      expect(await sessionOf(t, await signInAs(t, first))).toBeDefined();
      expect(await unitCodesOf(t, first)).toEqual(['MAIN']);

      const main = await orgUnitsRepository.findByCode(t.database.db, 'MAIN');
      const facility = await createOrgUnit(t.context, operator, {
        code: 'FAC-C',
        name: 'Facility C',
        parentId: main?.id ?? null,
      });
      const stranger = account(['clinic-doctor']);
      const refused = await signInAs(t, stranger);
      expect(refused.headers.location).toBe(`${publicUrl}/?signInError=noUnit`);
      expect(await usersRepository.findByOidcSubject(t.database.db, stranger)).toBeUndefined();
      expect(oidcSignInErrors.noUnit).toBe(
        'Your account has no organisation unit in this system. Ask your administrator.',
      );

      // Made beforehand in a unit, the subject signs in and keeps it; so does the first account.
      await createUser(t.context, operator, {
        username: 'dr.precreated',
        role: 'doctor',
        password: testPassword,
        oidcSubject: stranger,
        units: [facility.id],
      });
      expect(await sessionOf(t, await signInAs(t, stranger))).toBeDefined();
      expect(await unitCodesOf(t, stranger)).toEqual(['FAC-C']);
      expect(await sessionOf(t, await signInAs(t, first))).toBeDefined();
      expect(await unitCodesOf(t, first)).toEqual(['MAIN']);
    } finally {
      await t.close();
    }
  });
});

describe('reading the claims', () => {
  const settings = {
    roleClaim: 'realm_access.roles',
    roleMap: [
      { role: 'nurse' as const, claimValue: 'clinic-nurse' },
      { role: 'doctor' as const, claimValue: 'clinic-doctor' },
      { role: 'admin' as const, claimValue: 'triage-admin' },
      { role: 'manager' as const, claimValue: 'district-manager' },
    ],
    mfaAcr: ['urn:clinic:mfa'],
  };

  it('reads a nested role claim (Keycloak), a list or a space-separated string, the most rights winning', () => {
    expect(
      roleFromClaims({ realm_access: { roles: ['offline_access', 'clinic-nurse'] } }, settings),
    ).toBe('nurse');
    expect(
      roleFromClaims(
        { realm_access: { roles: ['clinic-nurse', 'triage-admin', 'clinic-doctor'] } },
        settings,
      ),
    ).toBe('admin');
    expect(roleFromClaims({ realm_access: { roles: 'clinic-doctor other' } }, settings)).toBe(
      'doctor',
    );
    // A manager changes nothing: below admin and doctor, above nurse.
    const managerAnd = (other: string) =>
      roleFromClaims({ realm_access: { roles: ['district-manager', other] } }, settings);
    expect(managerAnd('triage-admin')).toBe('admin');
    expect(managerAnd('clinic-doctor')).toBe('doctor');
    expect(managerAnd('clinic-nurse')).toBe('manager');
    expect(roleFromClaims({ roles: ['triage-admin'] }, settings)).toBeUndefined();
    expect(
      roleFromClaims({ realm_access: { roles: [7, { name: 'clinic-nurse' }] } }, settings),
    ).toBeUndefined();
    expect(roleFromClaims({ realm_access: 'clinic-nurse' }, settings)).toBeUndefined();
  });

  it('takes amr mfa, otp, hwk or swk, or an acr of OIDC_MFA_ACR, as a second factor done', () => {
    for (const method of ['mfa', 'otp', 'hwk', 'swk']) {
      expect(providerDidSecondFactor({ amr: ['pwd', method] }, settings)).toBe(true);
    }
    expect(providerDidSecondFactor({ amr: ['pwd'] }, settings)).toBe(false);
    expect(providerDidSecondFactor({ amr: 'mfa' }, settings)).toBe(false);
    expect(providerDidSecondFactor({ acr: 'urn:clinic:mfa' }, settings)).toBe(true);
    expect(providerDidSecondFactor({ acr: 'urn:clinic:password' }, settings)).toBe(false);
    expect(providerDidSecondFactor({ acr: 'urn:clinic:mfa' }, { mfaAcr: [] })).toBe(false);
  });
});
