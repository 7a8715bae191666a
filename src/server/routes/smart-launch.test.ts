import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { CdsResponse } from '../../shared/api/cds-hooks.ts';
import type { SmartLaunch, SmartWriteBackResult } from '../../shared/api/smart-launch.ts';
import { addCdsClient } from '../services/cds-clients.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { makeSigningKey, signCall } from '../testing/cds-record-system.ts';
import { testDatabases } from '../testing/databases.ts';
import { requestsAs } from '../testing/requests.ts';
import { highRiskBody } from '../testing/risk-bodies.ts';
import {
  startStandInRecordSystem,
  type StandInRecordSystem,
} from '../testing/stand-in-record-system.ts';
import { signedInAs } from '../testing/users.ts';

const publicUrl = 'https://triage.clinic.example';
const clientId = 'triage-app';
const launchCookie = 'triage_smart_launch';

/** A browser: the cookies it holds, sent with each request to the product. */
class Browser {
  readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  keep(response: { cookies: Array<{ name: string; value: string }> }): void {
    for (const cookie of response.cookies) this.cookies.set(cookie.name, cookie.value);
  }
}

describe.each(testDatabases())('launching as a SMART app on $engine', (testDatabase) => {
  let ehr: StandInRecordSystem;
  let t: TestApp;

  beforeAll(async () => {
    ehr = await startStandInRecordSystem({
      clientId,
      redirectUris: [`${publicUrl}/smart/callback`],
    });
    t = await openTestApp(testDatabase, {
      PUBLIC_URL: publicUrl,
      SMART_CLIENT_ID: clientId,
      SMART_ISSUERS: ehr.issuer,
      SMART_WRITE_BACK: 'true',
    });
  });
  afterAll(async () => {
    await t.close();
    await ehr.close();
  });
  beforeEach(() => {
    ehr.denyScopes([]);
    for (const type of ['Patient', 'Observation', 'Condition', 'RiskAssessment'] as const) {
      ehr.failResource(type, undefined);
    }
  });

  /** The record system opens the launch URL; the browser follows to its return. */
  async function launch(browser: Browser, iss = ehr.issuer) {
    const started = await t.app.inject({
      method: 'GET',
      url: `/smart/launch?iss=${encodeURIComponent(iss)}&launch=${ehr.newLaunch({ patientId: 'smart-pat-1' })}`,
      headers: { cookie: browser.header() },
    });
    browser.keep(started);
    return started;
  }

  async function authorizeAndReturn(browser: Browser, authorizeUrl: string) {
    const authorized = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(authorized.status).toBe(302);
    const back = new URL(authorized.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(`${publicUrl}/smart/callback`);
    const returned = await t.app.inject({
      method: 'GET',
      url: `/smart/callback${back.search}`,
      headers: { cookie: browser.header() },
    });
    browser.keep(returned);
    return returned;
  }

  /** A whole launch in a browser where `user` is signed in: the launch as the wizard reads it. */
  async function launchedAs(user: { cookie: string }) {
    const browser = new Browser();
    const [name = '', value = ''] = user.cookie.split('=');
    browser.cookies.set(name, value);
    const started = await launch(browser);
    expect(started.statusCode, started.body).toBe(302);
    const returned = await authorizeAndReturn(browser, started.headers.location as string);
    expect(returned.statusCode, returned.body).toBe(302);
    const opened = new URL(returned.headers.location as string);
    expect(opened.pathname).toBe('/assessments/new');
    const id = opened.searchParams.get('launch') ?? '';
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/smart/launches/${id}`,
      headers: { cookie: browser.header() },
    });
    return { browser, id, read };
  }

  it('sends the browser to the allowed issuer with PKCE and state, and may be framed by it only', async () => {
    const browser = new Browser();
    const started = await launch(browser);
    expect(started.statusCode, started.body).toBe(302);
    const authorize = new URL(started.headers.location as string);
    expect(authorize.origin).toBe(ehr.origin);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: `${publicUrl}/smart/callback`,
      aud: ehr.issuer,
      code_challenge_method: 'S256',
    });
    expect(authorize.searchParams.get('state')).toMatch(/.{16,}/);
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['launch', 'patient/Observation.rs', 'patient/RiskAssessment.c']),
    );
    expect(started.headers['content-security-policy']).toContain(`frame-ancestors ${ehr.origin}`);
    expect(started.headers['x-frame-options']).toBeUndefined();
    const cookie = started.cookies.find((c) => c.name === launchCookie);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    // The browser that launched may be framed by the record system on every page; another not.
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/session/status',
      headers: { cookie: browser.header() },
    });
    expect(page.headers['content-security-policy']).toContain(`frame-ancestors ${ehr.origin}`);
    const other = await t.app.inject({ method: 'GET', url: '/api/session/status' });
    expect(other.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(other.headers['x-frame-options']).toBe('DENY');
  });

  it('opens the wizard with the record read, the patient matched, and audits it without values', async () => {
    const nurse = await signedInAs(t, 'nurse');
    const { read } = await launchedAs(nurse);
    expect(read.statusCode, read.body).toBe(200);
    const launched = read.json<SmartLaunch>();
    expect(launched).toMatchObject({ issuer: ehr.issuer, unread: [], writeBack: true });
    expect(launched.values).toEqual([
      { field: 'age', value: 58, date: null, filled: true },
      { field: 'gender', value: 'Female', date: null, filled: true },
      { field: 'height', value: 162, date: '2026-10-02', filled: true },
      { field: 'weight', value: 88, date: '2026-10-02', filled: true },
      { field: 'smoking', value: false, date: '2019-03-01', filled: false },
      { field: 'familyHistory', condition: 'DM2', value: true, date: null, filled: true },
      { field: 'diagnosed', condition: 'Hypertension', value: true, date: null, filled: true },
    ]);
    expect(ehr.tokenRequests.at(-1)).toMatchObject({ pkceVerified: true, clientId });

    // The Patient's identifier made the patient record, in the nurse's unit.
    const call = requestsAs(t);
    const record = await call(nurse, 'GET', `/api/patients/${launched.patientRecordId ?? ''}`);
    expect(record.json()).toMatchObject({
      number: 'SMART-1001',
      name: 'Nomsa Dlamini',
      birthDate: '1968-05-14',
      gender: 'Female',
    });
    // A second launch for the patient finds the same record.
    const again = await launchedAs(nurse);
    expect(again.read.json<SmartLaunch>().patientRecordId).toBe(launched.patientRecordId);

    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'outcome', 'detail', 'target_id', 'user_id'])
      .where('action', 'in', ['smart_launch', 'smart_read'])
      .where('user_id', '=', nurse.userId)
      .orderBy('id')
      .execute();
    expect(audit.slice(0, 2)).toEqual([
      {
        action: 'smart_launch',
        outcome: 'success',
        detail: `issuer=${ehr.issuer}`,
        target_id: launched.patientRecordId,
        user_id: nurse.userId,
      },
      {
        action: 'smart_read',
        outcome: 'success',
        // Every page read: four observations come on two pages of two.
        detail: `issuer=${ehr.issuer}; read Condition 2, FamilyMemberHistory 1, Observation 4, Patient 1`,
        target_id: launched.patientRecordId,
        user_id: nurse.userId,
      },
    ]);
    // The issuer's address is named; its port could hold any digits.
    const details = audit.map((row) => (row.detail ?? '').replaceAll(ehr.issuer, '')).join(' ');
    for (const value of ['SMART-1001', 'Dlamini', '1968', '162', '88']) {
      expect(details).not.toContain(value);
    }
  });

  it('says on the page what the record did not grant or answer, and fills nothing of it', async () => {
    const nurse = await signedInAs(t, 'nurse');
    ehr.denyScopes(['patient/Condition.rs']);
    ehr.failResource('Observation', 500);
    const seen = ehr.fhirRequests.length;
    const { read } = await launchedAs(nurse);
    const launched = read.json<SmartLaunch>();
    expect(launched.unread).toEqual([
      { resource: 'Observation', reason: 'The record system answered 500.' },
      { resource: 'Condition', reason: 'Not granted by the record system.' },
    ]);
    expect(launched.values.map((value) => value.field)).toEqual(['age', 'gender', 'familyHistory']);
    // What was not granted was not asked for.
    expect(ehr.fhirRequests.slice(seen).some((request) => request.url.includes('Condition'))).toBe(
      false,
    );
    expect(ehr.fhirRequests.slice(seen).map((request) => request.url.split('?')[0])).toEqual(
      expect.arrayContaining(['/fhir/Patient/smart-pat-1', '/fhir/Observation']),
    );
  });

  it('sends the RiskAssessments into the record once, also when sent again', async () => {
    const nurse = await signedInAs(t, 'nurse');
    const { browser, id, read } = await launchedAs(nurse);
    const launched = read.json<SmartLaunch>();
    const before = ehr.riskAssessments().length;
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: browser.header() },
      payload: { ...highRiskBody, patientId: launched.patientRecordId },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const assessment = saved.json<Assessment>();
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/smart/launches/${id}/write-back`,
        headers: { cookie: browser.header() },
        payload: { assessmentId: assessment.id },
      });

    // The record system fails first: the failure is said, the assessment stays as it was.
    ehr.failResource('RiskAssessment', 503);
    const failed = await send();
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ error: { code: 'record_write_failed' } });
    ehr.failResource('RiskAssessment', undefined);

    const sent = await send();
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<SmartWriteBackResult>()).toMatchObject({ created: 6, alreadyThere: 0 });
    const retried = await send();
    expect(retried.json<SmartWriteBackResult>()).toMatchObject({ created: 0, alreadyThere: 6 });
    const held = ehr.riskAssessments().slice(before);
    expect(held).toHaveLength(6);
    expect(held[0]).toMatchObject({
      resourceType: 'RiskAssessment',
      subject: { reference: 'Patient/smart-pat-1' },
      identifier: [
        {
          system: 'urn:ietf:rfc:3986',
          value: `${publicUrl}/fhir/RiskAssessment/${assessment.id}.DM2`,
        },
      ],
    });
    const kept = await t.app.inject({
      method: 'GET',
      url: `/api/assessments/${assessment.id}`,
      headers: { cookie: browser.header() },
    });
    expect(kept.json<Assessment>().version).toBe(assessment.version);
    const again = await t.app.inject({
      method: 'GET',
      url: `/api/smart/launches/${id}`,
      headers: { cookie: browser.header() },
    });
    expect(again.json<SmartLaunch>().writtenBack?.assessmentId).toBe(assessment.id);

    // Another patient's assessment is never sent into this patient's chart.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: browser.header() },
      payload: highRiskBody,
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/smart/launches/${id}/write-back`,
      headers: { cookie: browser.header() },
      payload: { assessmentId: other.json<Assessment>().id },
    });
    expect(refused.statusCode).toBe(409);
    expect(ehr.riskAssessments().slice(before)).toHaveLength(6);
  });

  it('refuses an issuer not allowed with a sentence, and audits it', async () => {
    const browser = new Browser();
    const refused = await launch(browser, 'https://elsewhere.example/fhir');
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.body).toContain(
      'The record system https://elsewhere.example/fhir is not allowed to open this app.',
    );
    expect(refused.cookies.find((c) => c.name === launchCookie)).toBeUndefined();
    expect(refused.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const row = await t.database.db
      .selectFrom('audit_events')
      .select(['outcome', 'detail'])
      .where('action', '=', 'smart_launch')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      outcome: 'failure',
      detail: 'refused: issuer not allowed https://elsewhere.example/fhir',
    });
  });

  it('continues a launch only in the browser that began it, for the user who took it up', async () => {
    const browser = new Browser();
    const started = await launch(browser);
    const authorized = await fetch(started.headers.location as string, { redirect: 'manual' });
    const back = new URL(authorized.headers.get('location') ?? '');
    // Another browser returning with the code is refused.
    const elsewhere = await t.app.inject({ method: 'GET', url: `/smart/callback${back.search}` });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body).toContain('This launch has expired or began in another browser.');

    const returned = await t.app.inject({
      method: 'GET',
      url: `/smart/callback${back.search}`,
      headers: { cookie: browser.header() },
    });
    expect(returned.statusCode, returned.body).toBe(302);
    const id = new URL(returned.headers.location as string).searchParams.get('launch') ?? '';
    // The same return again (a replayed code) is refused: the launch is past its authorization.
    const replayed = await t.app.inject({
      method: 'GET',
      url: `/smart/callback${back.search}`,
      headers: { cookie: browser.header() },
    });
    expect(replayed.statusCode).toBe(400);

    // No session yet: the wizard's read is 401 and the gate shows; after sign-in it goes on.
    const signedOut = await t.app.inject({
      method: 'GET',
      url: `/api/smart/launches/${id}`,
      headers: { cookie: browser.header() },
    });
    expect(signedOut.statusCode).toBe(401);
    const nurse = await signedInAs(t, 'nurse');
    const doctor = await signedInAs(t, 'doctor');
    const asNurse = `${browser.header()}; ${nurse.cookie}`;
    const taken = await t.app.inject({
      method: 'GET',
      url: `/api/smart/launches/${id}`,
      headers: { cookie: asNurse },
    });
    expect(taken.statusCode, taken.body).toBe(200);
    // Another user in that browser, or the nurse in another browser, does not reach it.
    for (const cookie of [`${browser.header()}; ${doctor.cookie}`, nurse.cookie]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/smart/launches/${id}`,
        headers: { cookie },
      });
      expect(response.statusCode).toBe(404);
    }
  });

  it('ends a refusal of the authorization server on a page that says so', async () => {
    const browser = new Browser();
    const started = await launch(browser);
    ehr.denyNextAuthorization();
    const denied = await authorizeAndReturn(browser, started.headers.location as string);
    expect(denied.statusCode).toBe(403);
    expect(denied.body).toContain('The record system did not authorize the app (access_denied).');
  });

  it("gives the CDS card a smart link that launches the app for the patient's record", async () => {
    const cdsIssuer = 'https://ehr-cds.clinic.example';
    const key = await makeSigningKey('ES384', 'smart-card-key');
    await addCdsClient(
      t.context,
      { user: null, address: 'command line' },
      { issuer: cdsIssuer, jwks: { keys: [key.publicJwk] } },
    );
    const subject = { reference: 'Patient/cds-1' };
    const observation = (code: string, value: number, unit: string) => ({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code }] },
      subject,
      effectiveDateTime: '2026-10-01',
      valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
    });
    const searchset = (entries: unknown[]) => ({
      resourceType: 'Bundle',
      type: 'searchset',
      entry: entries.map((resource) => ({ resource })),
    });
    const jwt = await signCall(key, {
      issuer: cdsIssuer,
      audience: `${publicUrl}/cds-services/chronic-disease-risk`,
      now: Math.floor(t.context.now().getTime() / 1000),
    });
    const answer = await t.app.inject({
      method: 'POST',
      url: '/cds-services/chronic-disease-risk',
      headers: { authorization: `Bearer ${jwt}` },
      payload: {
        hook: 'patient-view',
        hookInstance: crypto.randomUUID(),
        context: { patientId: 'cds-1' },
        prefetch: {
          patient: {
            resourceType: 'Patient',
            id: 'cds-1',
            identifier: [{ system: 'urn:triage:patient-number', value: 'MRN-CARD' }],
            gender: 'male',
            birthDate: '1960-05-01',
          },
          observations: searchset([
            observation('8302-2', 1.75, 'm'),
            observation('29463-7', 110, 'kg'),
          ]),
          conditions: searchset([]),
          familyHistory: searchset([
            {
              resourceType: 'FamilyMemberHistory',
              status: 'completed',
              patient: subject,
              condition: [
                { code: { coding: [{ system: 'http://snomed.info/sct', code: '44054006' }] } },
              ],
            },
          ]),
        },
      },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const cards = answer.json<CdsResponse>().cards;
    expect(cards.length).toBeGreaterThan(0);
    const record = await t.database.db
      .selectFrom('patient_records')
      .select('id')
      .where('number', '=', 'MRN-CARD')
      .executeTakeFirstOrThrow();
    for (const card of cards) {
      expect(card.links).toEqual([
        {
          label: 'Start a full assessment',
          url: `${publicUrl}/smart/launch`,
          type: 'smart',
          appContext: JSON.stringify({ start: 'assessment', patientRecordId: record.id }),
        },
      ]);
    }
  });

  it('over HTTPS, keeps the launch and a sign-in within it in cookies that work inside the chart only', async () => {
    const secure = await openTestApp(testDatabase, {
      PUBLIC_URL: publicUrl,
      SMART_CLIENT_ID: clientId,
      SMART_ISSUERS: ehr.issuer,
      COOKIE_SECURE: 'true',
    });
    try {
      const started = await secure.app.inject({
        method: 'GET',
        url: `/smart/launch?iss=${encodeURIComponent(ehr.issuer)}&launch=${ehr.newLaunch()}`,
      });
      expect(started.statusCode, started.body).toBe(302);
      const header = [started.headers['set-cookie']].flat().join('\n');
      expect(header).toMatch(/triage_smart_launch=[^;]+;.*Secure.*SameSite=None/);
      expect(header).toContain('Partitioned');
      const launchCookieValue = started.cookies.find((c) => c.name === launchCookie)?.value;

      await signedInAs(secure, 'nurse', 'nurse-outside');
      const signIn = (cookie?: string) =>
        secure.app.inject({
          method: 'POST',
          url: '/api/session',
          headers: cookie === undefined ? {} : { cookie },
          payload: { username: 'nurse-outside', password: 'a-long-test-passphrase-42' },
        });
      // A sign-in anywhere else keeps the strict cookie.
      const outside = [(await signIn()).headers['set-cookie']].flat().join('\n');
      expect(outside).toContain('SameSite=Strict');
      expect(outside).not.toContain('Partitioned');
      const inside = [
        (await signIn(`${launchCookie}=${launchCookieValue ?? ''}`)).headers['set-cookie'],
      ]
        .flat()
        .join('\n');
      expect(inside).toMatch(/triage_session=[^;]+;.*Secure.*SameSite=None/);
      expect(inside).toContain('Partitioned');
    } finally {
      await secure.close();
    }
  });
});
