import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../shared/api/audit.ts';
import type { CdsResponse } from '../../shared/api/cds-hooks.ts';
import { PREFETCH_TEMPLATES, type PrefetchKey } from '../cds/service-definition.ts';
import { addCdsClient } from '../services/cds-clients.ts';
import { FAILURE_ROWS_PER_WINDOW } from '../services/cds-failure-audit.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import {
  makeSigningKey,
  operationOutcome,
  searchset,
  signCall,
  StandInServer,
  type SigningKey,
  type TokenOptions,
} from '../testing/cds-record-system.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

/**
 * The CDS Hooks service at its edges (issue 33): what the record system sends or answers that is
 * not the record whole (OperationOutcomes, pages, failures, redirects), the FHIR servers a client
 * may name, and what the audit trail keeps of calls that fail.
 */

const publicUrl = 'https://triage.clinic.example';
const serviceUrl = `${publicUrl}/cds-services/chronic-disease-risk`;
const issuer = 'https://ehr.clinic.example';
const operator = { user: null, address: 'command line' };
const patientId = 'p-edge';

const loinc = (code: string) => ({ coding: [{ system: 'http://loinc.org', code }] });
const snomed = (code: string) => ({ coding: [{ system: 'http://snomed.info/sct', code }] });
const subject = { reference: `Patient/${patientId}` };

function quantity(code: string, value: number, unit: string, date: string) {
  return {
    resourceType: 'Observation',
    status: 'final',
    code: loinc(code),
    subject,
    effectiveDateTime: date,
    valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
  };
}

/** Type 2 diabetes in the record: with it read, the service gives no diabetes card. */
const diabetes = {
  resourceType: 'Condition',
  clinicalStatus: {
    coding: [
      { system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' },
    ],
  },
  code: snomed('44054006'),
  subject,
};

/** A man of 66 who smokes, 1.75 m and 95 kg, with family diabetes: a diabetes card unless diagnosed. */
const record = {
  patient: {
    resourceType: 'Patient',
    id: patientId,
    identifier: [{ system: 'urn:triage:patient-number', value: 'MRN-EDGE' }],
    gender: 'male',
    birthDate: '1960-05-01',
  },
  observations: searchset([
    quantity('8302-2', 1.75, 'm', '2026-10-01'),
    quantity('29463-7', 95, 'kg', '2026-10-03'),
    {
      resourceType: 'Observation',
      status: 'final',
      code: loinc('72166-2'),
      subject,
      effectiveDateTime: '2026-10-01',
      valueCodeableConcept: snomed('77176002'),
    },
  ]),
  conditions: searchset([diabetes]),
  familyHistory: searchset([
    {
      resourceType: 'FamilyMemberHistory',
      status: 'completed',
      patient: subject,
      condition: [{ code: snomed('44054006') }],
    },
  ]),
};

const path = (key: PrefetchKey) =>
  PREFETCH_TEMPLATES[key].replaceAll('{{context.patientId}}', patientId);

/** The record with its conditions left out of the prefetch, for the service to read. */
function withoutConditions(): Omit<typeof record, 'conditions'> {
  const { patient, observations, familyHistory } = record;
  return { patient, observations, familyHistory };
}

const summaries = (response: { json: <T>() => T }) =>
  response.json<CdsResponse>().cards.map((card) => card.summary);

describe.each(testDatabases())('the CDS Hooks service at its edges on $engine', (testDatabase) => {
  let t: TestApp;
  let ehr: StandInServer;
  let elsewhere: StandInServer;
  let key: SigningKey;

  const nowSeconds = () => Math.floor(t.context.now().getTime() / 1000);
  const token = (options: Partial<TokenOptions> = {}) =>
    signCall(key, { issuer, audience: serviceUrl, now: nowSeconds(), ...options });

  const fhirServer = () => ({
    fhirServer: `${ehr.origin}/fhir`,
    fhirAuthorization: { access_token: 'record-system-token', token_type: 'Bearer' },
  });

  function body(prefetch: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    return {
      hook: 'patient-view',
      hookInstance: crypto.randomUUID(),
      context: { patientId },
      prefetch,
      ...extra,
    };
  }

  const call = async (
    payload: unknown,
    options: { jwt?: string | undefined; address?: string } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/cds-services/chronic-disease-risk',
      remoteAddress: options.address ?? '127.0.0.1',
      headers:
        'jwt' in options && options.jwt === undefined
          ? {}
          : { authorization: `Bearer ${options.jwt ?? (await token())}` },
      payload: payload as Record<string, unknown>,
    });

  const lastAudit = () =>
    t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'cds_call')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { PUBLIC_URL: publicUrl });
    key = await makeSigningKey('ES384', 'edge-key');
    ehr = new StandInServer();
    elsewhere = new StandInServer();
    await ehr.start();
    await elsewhere.start();
    await addCdsClient(t.context, operator, {
      issuer,
      jwks: { keys: [key.publicJwk] },
      fhirServers: [`${ehr.origin}/fhir`],
    });
  });
  afterAll(async () => {
    await ehr.stop();
    await elsewhere.stop();
    await t.close();
  });

  it('gives no diabetes card to a patient whose record says diabetes, prefetched whole', async () => {
    const diagnosed = await call(body(record));
    expect(diagnosed.statusCode, diagnosed.body).toBe(200);
    expect(summaries(diagnosed).join()).not.toContain('Type 2 Diabetes');
    // The same patient without the diagnosis gets one: the cases below would show it wrongly.
    const undiagnosed = await call(body({ ...record, conditions: searchset([]) }));
    expect(summaries(undiagnosed)).toContain('Type 2 Diabetes: High Risk');
  });

  describe('a prefetch that is not the record whole', () => {
    const unread: Array<[string, unknown]> = [
      ['an OperationOutcome', operationOutcome('forbidden')],
      ['a Bundle holding an OperationOutcome', searchset([operationOutcome('too-costly')])],
    ];

    it.each(unread)('%s is read from fhirServer instead', async (_name, value) => {
      ehr.fhir.set(path('conditions'), { status: 200, body: record.conditions });
      ehr.takeSeen();
      const response = await call(body({ ...record, conditions: value }, fhirServer()));
      expect(response.statusCode, response.body).toBe(200);
      expect(summaries(response).join()).not.toContain('Type 2 Diabetes');
      expect(ehr.takeSeen()).toEqual([path('conditions')]);
    });

    it.each(unread)('%s, with fhirServer failing too, gives no card', async (_name, value) => {
      for (const answer of [
        { status: 403, body: operationOutcome('forbidden') },
        { status: 200, body: operationOutcome('exception') },
        { status: 200, body: searchset([diabetes, operationOutcome('incomplete')]) },
      ]) {
        ehr.fhir.set(path('conditions'), answer);
        const response = await call(body({ ...record, conditions: value }, fhirServer()));
        expect(response.statusCode, response.body).toBe(412);
        expect(response.body).not.toContain('cards');
        expect(response.json()).toEqual({
          error: {
            code: 'fhir_data_unavailable',
            message:
              'The Condition search (prefetch key conditions) could not be read from the fhirServer.',
          },
        });
      }
    });

    it.each(unread)('%s, with no fhirServer, is a 412 naming the key', async (_name, value) => {
      const response = await call(body({ ...record, conditions: value }));
      expect(response.statusCode, response.body).toBe(412);
      expect(response.json<{ error: { message: string } }>().error.message).toMatch(
        /^The prefetch of conditions \(.*\) cannot be used, and the call names no fhirServer with fhirAuthorization to read it from\.$/,
      );
    });

    it('a Bundle with a next link is read to its end from fhirServer', async () => {
      const hypertension = { ...diabetes, code: snomed('38341003') };
      const [first, second] = ehr.servePages(
        `${path('conditions')}&_count=1`,
        [hypertension, diabetes],
        1,
      );
      // The first page holds no diabetes: the card would be wrong if the rest were not read.
      const prefetched = ehr.fhir.get(first ?? '')?.body;
      ehr.takeSeen();
      const response = await call(body({ ...record, conditions: prefetched }, fhirServer()));
      expect(response.statusCode, response.body).toBe(200);
      expect(summaries(response).join()).not.toContain('Type 2 Diabetes');
      expect(ehr.seen).toEqual([{ path: second, authorization: 'Bearer record-system-token' }]);
      ehr.takeSeen();

      const without = await call(body({ ...record, conditions: prefetched }));
      expect(without.statusCode).toBe(412);
      expect(without.json<{ error: { message: string } }>().error.message).toContain(
        'conditions (one page of more)',
      );
    });

    it('a next link off the fhirServer is not followed', async () => {
      const prefetched = {
        ...(searchset([]) as object),
        link: [{ relation: 'next', url: `${elsewhere.origin}/fhir/Condition?page=2` }],
      };
      elsewhere.takeSeen();
      const response = await call(body({ ...record, conditions: prefetched }, fhirServer()));
      expect(response.statusCode, response.body).toBe(412);
      expect(elsewhere.takeSeen()).toEqual([]);
      expect(await lastAudit()).toMatchObject({
        detail: '412 conditions: a next link off the fhirServer',
      });
    });
  });

  describe('a search read from fhirServer', () => {
    const fetching = () => body(withoutConditions(), fhirServer());

    it('is read to its last page', async () => {
      const paths = ehr.servePages(
        path('conditions'),
        [{ ...diabetes, code: snomed('38341003') }, diabetes],
        1,
      );
      ehr.takeSeen();
      const response = await call(fetching());
      expect(response.statusCode, response.body).toBe(200);
      expect(summaries(response).join()).not.toContain('Type 2 Diabetes');
      expect(ehr.takeSeen()).toEqual(paths);
    });

    it('fails rather than stopping short after 10 pages', async () => {
      const conditions = Array.from({ length: 11 }, () => ({
        ...diabetes,
        code: snomed('38341003'),
      }));
      ehr.servePages(path('conditions'), conditions, 1);
      ehr.takeSeen();
      const response = await call(fetching());
      expect(response.statusCode, response.body).toBe(412);
      expect(ehr.takeSeen()).toHaveLength(10);
      expect(await lastAudit()).toMatchObject({ detail: '412 conditions: more than 10 pages' });
    });

    it('fails on a next link to another server, asking it nothing', async () => {
      ehr.servePages(path('conditions'), [diabetes, diabetes], 1, `${elsewhere.origin}/fhir`);
      elsewhere.takeSeen();
      const response = await call(fetching());
      expect(response.statusCode, response.body).toBe(412);
      expect(elsewhere.takeSeen()).toEqual([]);
    });

    it('follows no redirect', async () => {
      elsewhere.fhir.set(path('conditions'), { status: 200, body: searchset([]) });
      ehr.fhir.set(path('conditions'), {
        status: 302,
        body: {},
        headers: { location: `${elsewhere.origin}/fhir/${path('conditions')}` },
      });
      elsewhere.takeSeen();
      const response = await call(fetching());
      expect(response.statusCode, response.body).toBe(412);
      expect(elsewhere.takeSeen()).toEqual([]);
      expect(await lastAudit()).toMatchObject({ detail: '412 conditions: answered 302' });
    });

    it('tells the caller the same whatever it met; the audit row tells them apart', async () => {
      ehr.fhir.set(path('conditions'), { status: 403, body: operationOutcome('forbidden') });
      const forbidden = await call(fetching());
      const forbiddenAudit = await lastAudit();
      const gone = new StandInServer();
      await gone.start();
      const goneOrigin = gone.origin;
      await gone.stop();
      const client = 'https://unreachable-ehr.example';
      await addCdsClient(t.context, operator, {
        issuer: client,
        jwks: { keys: [key.publicJwk] },
        fhirServers: [`${goneOrigin}/fhir`],
      });
      const rest = withoutConditions();
      const unreachable = await call(
        body(rest, { ...fhirServer(), fhirServer: `${goneOrigin}/fhir` }),
        { jwt: await token({ issuer: client }) },
      );
      expect([forbidden.statusCode, unreachable.statusCode]).toEqual([412, 412]);
      expect(unreachable.json()).toEqual(forbidden.json());
      expect(forbiddenAudit.detail).toBe('412 conditions: answered 403');
      expect((await lastAudit()).detail).toBe('412 conditions: no connection (ECONNREFUSED)');
    });
  });

  describe('the FHIR servers a client may name', () => {
    const rest = withoutConditions();

    it.each([
      ['another port', (origin: string) => `${origin.replace(/:\d+$/, ':1')}/fhir`],
      ['another path', (origin: string) => `${origin}/other`],
      ['a path the registered one only begins', (origin: string) => `${origin}/fhirx`],
      ['a path that climbs out', (origin: string) => `${origin}/fhir/../admin`],
      [
        'another host naming the same machine',
        (origin: string) => origin.replace('127.0.0.1', 'localhost') + '/fhir',
      ],
    ])('refuse %s with a 412, asking nothing', async (_name, server) => {
      ehr.takeSeen();
      const response = await call(body(rest, { ...fhirServer(), fhirServer: server(ehr.origin) }));
      expect(response.statusCode, response.body).toBe(412);
      expect(response.json()).toMatchObject({
        error: { code: 'fhir_data_unavailable', field: 'fhirServer' },
      });
      expect(ehr.takeSeen()).toEqual([]);
    });

    it('refuse a loopback address the registered URL does not name', async () => {
      const client = 'https://loopback-by-name.example';
      const named = `${ehr.origin.replace('127.0.0.1', 'localhost')}/fhir`;
      await addCdsClient(t.context, operator, {
        issuer: client,
        jwks: { keys: [key.publicJwk] },
        fhirServers: [named],
      });
      ehr.fhir.set(path('conditions'), { status: 200, body: record.conditions });
      ehr.takeSeen();
      const response = await call(body(rest, { ...fhirServer(), fhirServer: named }), {
        jwt: await token({ issuer: client }),
      });
      expect(response.statusCode, response.body).toBe(412);
      expect(ehr.takeSeen()).toEqual([]);
      expect((await lastAudit()).detail).toMatch(
        /^412 conditions: the host name resolves only to addresses not allowed \(loopback\)/,
      );
      // Registered by its address, the same server is read.
      const byAddress = await call(body(rest, fhirServer()));
      expect(byAddress.statusCode, byAddress.body).toBe(200);
      expect(ehr.takeSeen()).toEqual([path('conditions')]);
    });

    it('refuse every fhirServer of a client that registered none', async () => {
      const client = 'https://no-servers.example';
      await addCdsClient(t.context, operator, { issuer: client, jwks: { keys: [key.publicJwk] } });
      ehr.takeSeen();
      // Even with everything prefetched: the fhirServer named is not one this client may name.
      const response = await call(body(record, fhirServer()), {
        jwt: await token({ issuer: client }),
      });
      expect(response.statusCode, response.body).toBe(412);
      expect(ehr.takeSeen()).toEqual([]);
      expect((await lastAudit()).detail).toBe(`412 fhirServer not registered (${ehr.origin})`);
    });
  });

  it('says in each card which record data it used, and that symptoms cannot come from it', async () => {
    const response = await call(body({ ...record, conditions: null }));
    const card = response
      .json<CdsResponse>()
      .cards.find((each) => each.summary.startsWith('Type 2 Diabetes'));
    expect(card?.detail).toContain(
      [
        '**From the record**',
        '',
        '- Age: 66 (born 1960-05-01)',
        '- Gender: Male',
        '- Height: 175 cm (2026-10-01)',
        '- Weight: 95 kg (2026-10-03)',
        '- Smoking: smokes (2026-10-01)',
        '- Diagnosed conditions: none found',
        '- Family history: Type 2 Diabetes',
        '',
        'Symptoms cannot come from the record and none were counted: a full assessment asks them and may change the status.',
      ].join('\n'),
    );
    const sparse = await call(
      body({
        patient: { resourceType: 'Patient', id: patientId, birthDate: '1950-01-01' },
        observations: null,
        conditions: null,
        familyHistory: null,
      }),
    );
    for (const each of sparse.json<CdsResponse>().cards) {
      expect(each.detail).toContain('- Height: not in the record');
      expect(each.detail).toContain('- Gender: not in the record');
    }
  });

  describe('the audit trail of failed calls', () => {
    it('names no user for a token that did not verify, and ?user= does not find it', async () => {
      const admin = await signedInAs(t, 'admin', 'admin-edge');
      // A token claiming an administrator's name as its issuer, and one of a real client, forged.
      const forger = await makeSigningKey('ES384', 'edge-key');
      for (const jwt of [
        await signCall(forger, { issuer: 'admin-edge', audience: serviceUrl, now: nowSeconds() }),
        await signCall(forger, { issuer, audience: serviceUrl, now: nowSeconds() }),
      ]) {
        const response = await call(body(record), { jwt });
        expect(response.statusCode).toBe(401);
      }
      const rows = await t.database.db
        .selectFrom('audit_events')
        .select(['user_id', 'username', 'detail'])
        .where('action', '=', 'cds_call')
        .orderBy('id', 'desc')
        .limit(2)
        .execute();
      expect(rows).toEqual([
        {
          user_id: null,
          username: null,
          detail: `claimed iss ${issuer}: The JWT's signature does not verify with the client's keys.`,
        },
        {
          user_id: null,
          username: null,
          detail: 'claimed iss admin-edge: The JWT issuer is not a registered client.',
        },
      ]);
      for (const user of ['admin-edge', issuer]) {
        const trail = await t.app.inject({
          method: 'GET',
          url: `/api/audit?user=${encodeURIComponent(user)}&action=cds_call&limit=500`,
          headers: { cookie: admin.cookie },
        });
        expect(trail.statusCode, trail.body).toBe(200);
        const items = trail.json<{ items: AuditEvent[] }>().items;
        expect(items.filter((item) => item.detail?.startsWith('claimed iss'))).toEqual([]);
        expect(items.every((item) => item.outcome === 'success' || item.detail !== null)).toBe(
          true,
        );
      }
    });

    it('writes 60 a minute from one address, then one row counting the rest', async () => {
      t.advance(60_000);
      const address = '198.51.100.23';
      const rowsFrom = (from: string) =>
        t.database.db
          .selectFrom('audit_events')
          .select(['detail', 'at'])
          .where('action', '=', 'cds_call')
          .where('address', '=', from)
          .orderBy('id')
          .execute();
      for (let attempt = 0; attempt < FAILURE_ROWS_PER_WINDOW + 5; attempt++) {
        const response = await call(body(record), { jwt: undefined, address });
        expect(response.statusCode).toBe(401);
      }
      expect(await rowsFrom(address)).toHaveLength(FAILURE_ROWS_PER_WINDOW);
      // Another address is not held back by this one.
      expect(
        (await call(body(record), { jwt: undefined, address: '198.51.100.24' })).statusCode,
      ).toBe(401);
      expect(await rowsFrom('198.51.100.24')).toHaveLength(1);

      t.advance(60_000);
      expect((await call(body(record), { jwt: undefined, address })).statusCode).toBe(401);
      const rows = await rowsFrom(address);
      expect(rows).toHaveLength(FAILURE_ROWS_PER_WINDOW + 2);
      expect(rows.at(-2)?.detail).toMatch(/^5 more failed calls from this address from /);
      expect(rows.at(-1)?.detail).toBe('no iss: The call carries no Authorization: Bearer JWT.');
    });
  });
});

describe('the capped failure rows of the CDS Hooks service', () => {
  it('are counted in one row when the server stops within the minute', async () => {
    const testDatabase = testDatabases()[0];
    if (testDatabase === undefined) throw new Error('no test database');
    const t = await openTestApp(testDatabase, { PUBLIC_URL: publicUrl });
    const address = '198.51.100.99';
    for (let attempt = 0; attempt < FAILURE_ROWS_PER_WINDOW + 3; attempt++) {
      await t.app.inject({
        method: 'POST',
        url: '/cds-services/chronic-disease-risk',
        remoteAddress: address,
        payload: {},
      });
    }
    await t.app.close();
    try {
      const rows = await t.database.db
        .selectFrom('audit_events')
        .select('detail')
        .where('address', '=', address)
        .execute();
      expect(rows).toHaveLength(FAILURE_ROWS_PER_WINDOW + 1);
      expect(rows.at(-1)?.detail).toMatch(/^3 more failed calls from this address/);
    } finally {
      await t.database.close();
    }
  });
});
