import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONDITION_DISPLAY_NAMES,
  DEFAULT_RULE_SET,
  RISK_STATUS_LABELS,
  ruleSetByVersion,
  score,
  type PatientData,
} from '../../engine/index.ts';
import type { CdsCard, CdsDiscovery, CdsResponse } from '../../shared/api/cds-hooks.ts';
import type { Patient } from '../../shared/api/patients.ts';
import { buildApp, loggerOptions } from '../app.ts';
import { PREFETCH_TEMPLATES } from '../cds/service-definition.ts';
import { loadConfig } from '../config.ts';
import { addCdsClient } from '../services/cds-clients.ts';
import { openTestApp, testPasswordCost, type TestApp } from '../testing/app.ts';
import {
  makeSigningKey,
  searchset,
  signCall,
  StandInServer,
  type SigningKey,
  type TokenOptions,
} from '../testing/cds-record-system.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

const publicUrl = 'https://triage.clinic.example';
const serviceUrl = `${publicUrl}/cds-services/chronic-disease-risk`;
const issuer = 'https://ehr.clinic.example';
const remoteIssuer = 'https://remote-ehr.clinic.example';
const idSystem = 'urn:triage:patient-number';
const operator = { user: null, address: 'command line' };

const loinc = (code: string) => ({ coding: [{ system: 'http://loinc.org', code }] });
const snomed = (code: string) => ({ coding: [{ system: 'http://snomed.info/sct', code }] });
const icd10cm = (code: string) => ({
  coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code }],
});

function quantity(patientId: string, code: string, value: number, unit: string, date: string) {
  return {
    resourceType: 'Observation',
    status: 'final',
    code: loinc(code),
    subject: { reference: `Patient/${patientId}` },
    effectiveDateTime: date,
    valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
  };
}

function smoking(patientId: string, answer: string, date: string) {
  return {
    resourceType: 'Observation',
    status: 'final',
    code: loinc('72166-2'),
    subject: { reference: `Patient/${patientId}` },
    effectiveDateTime: date,
    valueCodeableConcept: snomed(answer),
  };
}

function condition(patientId: string, code: object) {
  return {
    resourceType: 'Condition',
    clinicalStatus: {
      coding: [
        { system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' },
      ],
    },
    code,
    subject: { reference: `Patient/${patientId}` },
  };
}

function familyHistory(patientId: string, codes: object[]) {
  return {
    resourceType: 'FamilyMemberHistory',
    status: 'completed',
    patient: { reference: `Patient/${patientId}` },
    relationship: { coding: [{ code: 'FTH' }] },
    condition: codes.map((code) => ({ code })),
  };
}

interface StandInPatient {
  id: string;
  prefetch: Record<string, unknown>;
  /** What the mapping must give, written out by hand. */
  expected: PatientData;
}

/** A man of 66 (on 2026-11-22) who smokes, 1.75 m and 95 kg, with family DM2 and hypertension. */
const smoker: StandInPatient = {
  id: 'p-smoker',
  prefetch: {
    patient: {
      resourceType: 'Patient',
      id: 'p-smoker',
      identifier: [{ system: idSystem, value: 'MRN-1001' }],
      name: [{ use: 'official', family: 'Banda', given: ['Joseph'] }],
      gender: 'male',
      birthDate: '1960-05-01',
    },
    observations: searchset([
      quantity('p-smoker', '8302-2', 1.75, 'm', '2026-10-01'),
      quantity('p-smoker', '8302-2', 170, 'cm', '2020-01-01'),
      quantity('p-smoker', '29463-7', 95, 'kg', '2026-10-01'),
      smoking('p-smoker', '77176002', '2026-10-01'),
      smoking('p-smoker', '266919005', '2019-01-01'),
    ]),
    conditions: null,
    familyHistory: searchset([
      familyHistory('p-smoker', [
        snomed('44054006'),
        { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10', code: 'I10' }] },
      ]),
    ]),
  },
  expected: {
    demographics: { age: 66, gender: 'Male', height: 175, weight: 95 },
    riskFactors: { smoking: true, familyHistory: { DM2: true, Hypertension: true } },
  },
};

/** A woman with no height recorded, her weight in pounds, who never smoked. */
const noHeight: StandInPatient = {
  id: 'p-no-height',
  prefetch: {
    patient: {
      resourceType: 'Patient',
      id: 'p-no-height',
      identifier: [{ system: 'https://ehr.clinic.example/mrn', value: 'EHR-77' }],
      name: [{ text: 'Grace Phiri' }],
      gender: 'female',
      birthDate: '1990-02-10',
    },
    observations: searchset([
      quantity('p-no-height', '29463-7', 154, '[lb_av]', '2026-09-01'),
      smoking('p-no-height', '266919005', '2026-09-01'),
    ]),
    conditions: searchset([]),
    familyHistory: searchset([familyHistory('p-no-height', [snomed('195967001')])]),
  },
  expected: {
    demographics: { age: 36, gender: 'Female', weight: 69.9 },
    riskFactors: { smoking: false, familyHistory: { Asthma: true } },
  },
};

/** A woman of 58 with hypertension coded in ICD-10-CM and type 2 diabetes by a SNOMED CT descendant. */
const diagnosed: StandInPatient = {
  id: 'p-diagnosed',
  prefetch: {
    patient: {
      resourceType: 'Patient',
      id: 'p-diagnosed',
      identifier: [{ system: idSystem, value: 'mrn-2002' }],
      gender: 'female',
      birthDate: '1968-03-15',
    },
    observations: searchset([
      quantity('p-diagnosed', '8302-2', 160, 'cm', '2026-11-01'),
      quantity('p-diagnosed', '29463-7', 88000, 'g', '2026-11-01'),
    ]),
    conditions: searchset([
      condition('p-diagnosed', icd10cm('I10')),
      condition('p-diagnosed', snomed('313436004')),
      // About another patient: passed by.
      condition('someone-else', snomed('195967001')),
    ]),
    familyHistory: searchset([familyHistory('p-diagnosed', [snomed('55822004')])]),
  },
  expected: {
    demographics: { age: 58, gender: 'Female', height: 160, weight: 88 },
    riskFactors: { familyHistory: { Hyperlipidaemia: true } },
    management: { Hypertension: { diagnosed: true }, DM2: { diagnosed: true } },
  },
};

/** The cards the engine's statuses call for: one per condition at High or Moderate. */
function expectedCards(input: PatientData, ruleSet = DEFAULT_RULE_SET) {
  return score(input, ruleSet)
    .conditions.filter((result) => result.riskStatus === 'TRUE' || result.riskStatus === 'MAYBE')
    .map((result) => ({
      summary: `${CONDITION_DISPLAY_NAMES[result.condition]}: ${RISK_STATUS_LABELS[result.riskStatus]}`,
      indicator: result.riskStatus === 'TRUE' ? 'warning' : 'info',
    }));
}

describe.each(testDatabases())('the CDS Hooks service on $engine', (testDatabase) => {
  let t: TestApp;
  let ehr: StandInServer;
  let es384: SigningKey;
  let rs384: SigningKey;
  let intruder: SigningKey;

  const nowSeconds = () => Math.floor(t.context.now().getTime() / 1000);
  const token = (options: Partial<TokenOptions> = {}, key: SigningKey = es384) =>
    signCall(key, { issuer, audience: serviceUrl, now: nowSeconds(), ...options });

  function body(patient: StandInPatient, extra: Record<string, unknown> = {}) {
    return {
      hook: 'patient-view',
      hookInstance: crypto.randomUUID(),
      context: { patientId: patient.id, userId: 'Practitioner/nurse-1' },
      prefetch: patient.prefetch,
      ...extra,
    };
  }

  const call = (jwt: string | undefined, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/cds-services/chronic-disease-risk',
      headers: { ...(jwt === undefined ? {} : { authorization: `Bearer ${jwt}` }), ...headers },
      payload: payload as Record<string, unknown>,
    });

  const count = async (table: 'patient_records' | 'cds_jtis') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const lastAudit = () =>
    t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'cds_call')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { PUBLIC_URL: `${publicUrl}/` });
    es384 = await makeSigningKey('ES384', 'ehr-es384');
    rs384 = await makeSigningKey('RS384', 'ehr-rs384');
    // The same kid as the record system's key, but another key: a forger's.
    intruder = await makeSigningKey('ES384', 'ehr-es384');
    ehr = new StandInServer();
    ehr.jwks = { keys: [rs384.publicJwk] };
    await ehr.start();
    await addCdsClient(t.context, operator, {
      issuer,
      jwks: { keys: [es384.publicJwk] },
      fhirServers: [`${ehr.origin}/fhir`],
    });
    await addCdsClient(t.context, operator, {
      issuer: remoteIssuer,
      jwksUrl: `${ehr.origin}/jwks.json`,
    });
  });
  afterAll(async () => {
    await ehr.stop();
    await t.close();
  });

  it('lists the one service with its prefetch templates, with CORS for any origin', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/cds-services',
      headers: { origin: 'https://ehr.example.org' },
    });
    expect(response.statusCode).toBe(200);
    const discovered = response.json<CdsDiscovery>();
    expect(discovered.services).toHaveLength(1);
    expect(discovered.services[0]?.title).toBe('Chronic disease risk');
    expect(discovered.services[0]?.description).toMatch(/^Scores the patient's risk/);
    expect(discovered).toEqual({
      services: [
        {
          hook: 'patient-view',
          id: 'chronic-disease-risk',
          title: 'Chronic disease risk',
          description: discovered.services[0]?.description,
          prefetch: {
            patient: 'Patient/{{context.patientId}}',
            observations:
              'Observation?patient={{context.patientId}}&code=http://loinc.org|8302-2,http://loinc.org|29463-7,http://loinc.org|72166-2&_sort=-date',
            conditions: 'Condition?patient={{context.patientId}}&clinical-status=active',
            familyHistory: 'FamilyMemberHistory?patient={{context.patientId}}',
          },
        },
      ],
    });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/cds-services/chronic-disease-risk',
      headers: {
        origin: 'https://ehr.example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('Authorization, Content-Type');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers cards whose statuses are the engine score of what the record holds', async () => {
    // The record of mrn-2002 exists already: the card links to it rather than making another.
    const nurse = await signedInAs(t, 'nurse');
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/patients',
      headers: { cookie: nurse.cookie },
      payload: { number: 'MRN-2002', name: 'Ruth Zulu' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const existing = made.json<Patient>();

    let nonEmpty = 0;
    for (const patient of [smoker, noHeight, diagnosed]) {
      const response = await call(await token(), body(patient));
      expect(response.statusCode, `${patient.id}: ${response.body}`).toBe(200);
      const cards = response.json<CdsResponse>().cards;
      expect(
        cards.map((card) => ({ summary: card.summary, indicator: card.indicator })),
        patient.id,
      ).toEqual(expectedCards(patient.expected));
      if (cards.length > 0) nonEmpty += 1;
      for (const card of cards) {
        expect(card.summary.length).toBeLessThan(140);
        expect(card.source).toMatchObject({
          label: 'Chronic Disease Risk Assessment System',
          topic: { code: DEFAULT_RULE_SET.version },
        });
        expect(card.detail).toContain(`Scored under rule set ${DEFAULT_RULE_SET.version} `);
      }
      if (patient === diagnosed) {
        expect(cards.map((card) => card.summary).join()).not.toMatch(/Hypertension|Diabetes/);
        expect(cards[0]?.links).toEqual([
          {
            label: 'Start a full assessment',
            url: `${publicUrl}/assessments/new?patient=${existing.id}`,
            type: 'absolute',
          },
        ]);
      }
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(2);
  });

  it('names the factors that count in the detail, and links a record made from the Patient', async () => {
    const response = await call(await token(), body(smoker));
    const cards = response.json<CdsResponse>().cards;
    const dm2 = cards.find((card) => card.summary.startsWith('Type 2 Diabetes'));
    const engine = score(smoker.expected, DEFAULT_RULE_SET).conditions.find(
      (result) => result.condition === 'DM2',
    );
    expect(dm2).toBeDefined();
    for (const factor of engine?.details.riskFactors ?? []) {
      expect(dm2?.detail).toContain(`(weight ${factor.weight})`);
    }
    const record = await t.database.db
      .selectFrom('patient_records')
      .selectAll()
      .where('number_key', '=', 'mrn-1001')
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      number: 'MRN-1001',
      name: 'Joseph Banda',
      birth_date: '1960-05-01',
      gender: 'Male',
    });
    for (const card of cards) {
      expect(card.links?.[0]?.url).toBe(`${publicUrl}/assessments/new?patient=${record.id}`);
    }
    // The patient a card's link names is the Patient the FHIR API serves under the same id.
    const doctor = await signedInAs(t, 'doctor');
    const patient = await t.app.inject({
      method: 'GET',
      url: `/fhir/Patient/${record.id}`,
      headers: { cookie: doctor.cookie },
    });
    expect(patient.statusCode, patient.body).toBe(200);
    expect(patient.json()).toMatchObject({
      id: record.id,
      identifier: [{ value: 'MRN-1001' }],
    });
    // One record for two calls about the same patient; its creation audited as the record system's.
    expect(
      await t.database.db
        .selectFrom('audit_events')
        .select(['username', 'target_id'])
        .where('action', '=', 'patient_create')
        .where('target_id', '=', record.id)
        .execute(),
    ).toEqual([{ username: issuer, target_id: record.id }]);
    expect(await lastAudit()).toMatchObject({
      username: issuer,
      outcome: 'success',
      target_type: 'patient',
      target_id: record.id,
    });
  });

  it('scores with the rule set an administrator made active, and names it', async () => {
    const admin = await signedInAs(t, 'admin');
    const trial = ruleSetByVersion('2.0-dm2-bmi-0.25');
    const activate = (version: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/rule-sets/active',
        headers: { cookie: admin.cookie },
        payload: { version },
      });
    expect((await activate(trial.version)).statusCode).toBe(200);
    try {
      const response = await call(await token(), body(smoker));
      const cards = response.json<CdsResponse>().cards;
      expect(cards.map((card) => ({ summary: card.summary, indicator: card.indicator }))).toEqual(
        expectedCards(smoker.expected, trial),
      );
      expect(cards.map((card) => card.source.topic.code)).toEqual(cards.map(() => trial.version));
      const dm2 = cards.find((card) => card.summary.startsWith('Type 2 Diabetes'));
      expect(dm2?.detail).toContain('(weight 0.25)');
      expect(dm2?.detail).toContain(`Scored under rule set ${trial.version} `);
    } finally {
      expect((await activate(DEFAULT_RULE_SET.version)).statusCode).toBe(200);
    }
  });

  it('gives no link when the Patient has no usable identifier', async () => {
    const anonymous = structuredClone(smoker);
    anonymous.id = 'p-anonymous';
    (anonymous.prefetch.patient as { id: string; identifier: unknown }).id = 'p-anonymous';
    (anonymous.prefetch.patient as { identifier: unknown }).identifier = [
      { system: idSystem, value: 'not a number!' },
    ];
    anonymous.prefetch.observations = JSON.parse(
      JSON.stringify(smoker.prefetch.observations).replaceAll('p-smoker', 'p-anonymous'),
    ) as unknown;
    const response = await call(await token(), body(anonymous));
    expect(response.statusCode, response.body).toBe(200);
    const cards = response.json<CdsResponse>().cards;
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((card: CdsCard) => card.links === undefined)).toBe(true);
  });

  it('accepts RS384 from a client whose JWK Set is read from its URL, jku naming it', async () => {
    const response = await call(
      await token({ issuer: remoteIssuer, header: { jku: `${ehr.origin}/jwks.json` } }, rs384),
      body(noHeight),
    );
    expect(response.statusCode, response.body).toBe(200);
  });

  describe('refuses with 401, scoring nothing and auditing a failure', () => {
    const cases: Array<[string, () => Promise<string | undefined>]> = [
      ['no token', async () => undefined],
      ['a wrong signature', () => token({}, intruder)],
      [
        'a wrong aud',
        () => token({ audience: 'https://elsewhere.example/cds-services/chronic-disease-risk' }),
      ],
      ['an expired token', () => token({ now: nowSeconds() - 600, expiresIn: 300 })],
      ['an exp more than 5 minutes ahead', () => token({ expiresIn: 10 * 60 })],
      [
        'an iat further ahead than the clock skew',
        () => token({ issuedAt: nowSeconds() + 31, expiresIn: 120 }),
      ],
      ['no jti', () => token({ without: ['jti'] })],
      [
        'a jti that is not a string',
        () =>
          new SignJWT({ jti: 42 } as Record<string, unknown>)
            .setProtectedHeader({ alg: 'ES384', kid: 'ehr-es384' })
            .setIssuer(issuer)
            .setAudience(serviceUrl)
            .setIssuedAt(nowSeconds())
            .setExpirationTime(nowSeconds() + 60)
            .sign(es384.privateKey),
      ],
      ['an unknown issuer', () => token({ issuer: 'https://stranger.example' })],
      [
        'a jku that is not the registered URL',
        () => token({ header: { jku: 'https://attacker.example/jwks.json' } }),
      ],
      ['an RS384 key of another client', () => token({}, rs384)],
      [
        'an HMAC signature (a shared secret)',
        () =>
          new SignJWT({})
            .setProtectedHeader({ alg: 'HS384', kid: 'ehr-es384' })
            .setIssuer(issuer)
            .setAudience(serviceUrl)
            .setIssuedAt(nowSeconds())
            .setExpirationTime(nowSeconds() + 60)
            .setJti(crypto.randomUUID())
            .sign(new TextEncoder().encode('a shared secret of forty-eight bytes, long enough')),
      ],
    ];
    it.each(cases)('%s', async (_name, make) => {
      const before = { records: await count('patient_records'), jtis: await count('cds_jtis') };
      const response = await call(await make(), body(smoker));
      expect(response.statusCode, response.body).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toMatchObject({ error: { code: 'unauthenticated' } });
      expect(response.body).not.toContain('Type 2 Diabetes');
      expect({ records: await count('patient_records'), jtis: await count('cds_jtis') }).toEqual(
        before,
      );
      expect(await lastAudit()).toMatchObject({
        outcome: 'failure',
        target_type: 'cds_service',
        username: null,
        user_id: null,
      });
    });

    it('a jti used before', async () => {
      const jwt = await token();
      const first = await call(jwt, body(noHeight));
      expect(first.statusCode, first.body).toBe(200);
      const again = await call(jwt, body(noHeight));
      expect(again.statusCode).toBe(401);
      expect(again.headers['www-authenticate']).toBe('Bearer');
      expect(again.json()).toMatchObject({ error: { message: "The JWT's jti was already used." } });
      expect(await lastAudit()).toMatchObject({
        outcome: 'failure',
        username: null,
        detail: `claimed iss ${issuer}: The JWT's jti was already used.`,
      });
    });

    it('a jti used before, replayed after exp within the clock skew', async () => {
      const jwt = await token({ expiresIn: 60 });
      expect((await call(jwt, body(noHeight))).statusCode).toBe(200);
      t.advance(70_000);
      // Another call prunes the jtis no token can use any more; this one it must keep.
      expect((await call(await token(), body(noHeight))).statusCode).toBe(200);
      const again = await call(jwt, body(noHeight));
      expect(again.statusCode, again.body).toBe(401);
      expect(again.json()).toMatchObject({ error: { message: "The JWT's jti was already used." } });
    });

    it('a jti sent twice at once: one call answers, the other is refused', async () => {
      const jwt = await token();
      const answers = await Promise.all([call(jwt, body(smoker)), call(jwt, body(smoker))]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
    });

    it('a jti sent twice at once reads the FHIR server for one call only', async () => {
      ehr.fhir.set(PREFETCH_TEMPLATES.patient.replaceAll('{{context.patientId}}', noHeight.id), {
        status: 200,
        body: noHeight.prefetch.patient,
      });
      const { observations, conditions, familyHistory } = noHeight.prefetch;
      const fetching = {
        ...body({ ...noHeight, prefetch: { observations, conditions, familyHistory } }),
        fhirServer: `${ehr.origin}/fhir`,
        fhirAuthorization: { access_token: 'record-system-token', token_type: 'Bearer' },
      };
      ehr.takeSeen();
      const jwt = await token();
      const answers = await Promise.all([call(jwt, fetching), call(jwt, fetching)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
      expect(ehr.takeSeen()).toEqual([`Patient/${noHeight.id}`]);
    });
  });

  it('checks aud against the request host when PUBLIC_URL is not set', async () => {
    const local = await openTestApp(testDatabase);
    try {
      await addCdsClient(local.context, operator, { issuer, jwks: { keys: [es384.publicJwk] } });
      const now = Math.floor(local.context.now().getTime() / 1000);
      const send = async (audience: string) =>
        local.app.inject({
          method: 'POST',
          url: '/cds-services/chronic-disease-risk',
          headers: {
            host: 'triage.local:8443',
            authorization: `Bearer ${await signCall(es384, { issuer, audience, now })}`,
          },
          payload: body(noHeight),
        });
      expect((await send(serviceUrl)).statusCode).toBe(401);
      const right = await send('http://triage.local:8443/cds-services/chronic-disease-risk');
      expect(right.statusCode, right.body).toBe(200);
    } finally {
      await local.close();
    }
  });

  it('answers a bad body 400 after the token, audited as a failed call', async () => {
    const response = await call(await token(), { hook: 'patient-view', context: {} });
    expect(response.statusCode).toBe(400);
    expect(await lastAudit()).toMatchObject({ outcome: 'failure', username: issuer });
  });

  it('audits a call whose body is not JSON as a failure of its verified client', async () => {
    const before = await lastAudit();
    const response = await t.app.inject({
      method: 'POST',
      url: '/cds-services/chronic-disease-risk',
      headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
      payload: '{"hook": ',
    });
    expect(response.statusCode).toBe(400);
    const after = await lastAudit();
    expect(after.id).toBeGreaterThan(before.id);
    expect(after).toMatchObject({
      outcome: 'failure',
      username: issuer,
      target_type: 'cds_service',
      detail: 'the body could not be read (400)',
    });
  });

  it('verifies the JWT before it reads the body', async () => {
    const before = await lastAudit();
    const send = (authorization: string | undefined) =>
      t.app.inject({
        method: 'POST',
        url: '/cds-services/chronic-disease-risk',
        headers: {
          'content-type': 'application/json',
          ...(authorization === undefined ? {} : { authorization }),
        },
        payload: '{"hook": ',
      });
    // Neither body is parsed: the JWT is refused first, as it would be with any body.
    for (const authorization of [undefined, `Bearer ${await token({}, intruder)}`]) {
      const response = await send(authorization);
      expect(response.statusCode, response.body).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    const rows = await t.database.db
      .selectFrom('audit_events')
      .select(['username', 'detail'])
      .where('action', '=', 'cds_call')
      .where('id', '>', before.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { username: null, detail: 'no iss: The call carries no Authorization: Bearer JWT.' },
      {
        username: null,
        detail: `claimed iss ${issuer}: The JWT's signature does not verify with the client's keys.`,
      },
    ]);
  });

  it('reads what was not prefetched from fhirServer with the access token', async () => {
    const id = 'p-fetched';
    const patient = structuredClone(diagnosed.prefetch);
    (patient.patient as { id: string; identifier: unknown }).id = id;
    (patient.patient as { identifier: unknown }).identifier = [
      { system: idSystem, value: 'MRN-3003' },
    ];
    const relabel = (value: unknown) =>
      JSON.parse(JSON.stringify(value).replaceAll('p-diagnosed', id)) as unknown;
    const path = (key: keyof typeof PREFETCH_TEMPLATES) =>
      PREFETCH_TEMPLATES[key].replaceAll('{{context.patientId}}', id);
    ehr.fhir.set(path('patient'), { status: 200, body: patient.patient });
    ehr.fhir.set(path('observations'), { status: 200, body: relabel(patient.observations) });
    // The conditions come in two pages.
    const conditions = (relabel(patient.conditions) as { entry: unknown[] }).entry;
    ehr.fhir.set(path('conditions'), {
      status: 200,
      body: {
        resourceType: 'Bundle',
        type: 'searchset',
        entry: conditions.slice(0, 1),
        link: [{ relation: 'next', url: `${ehr.origin}/fhir/Condition?page=2` }],
      },
    });
    ehr.fhir.set('Condition?page=2', {
      status: 200,
      body: { resourceType: 'Bundle', entry: conditions.slice(1) },
    });
    ehr.seen.length = 0;

    const response = await call(
      await token(),
      body(
        {
          id,
          prefetch: { familyHistory: relabel(diagnosed.prefetch.familyHistory) },
          expected: {},
        },
        {
          fhirServer: `${ehr.origin}/fhir`,
          fhirAuthorization: {
            access_token: 'record-system-token',
            token_type: 'Bearer',
            expires_in: 300,
            scope: 'patient/*.read',
            subject: 'triage',
          },
        },
      ),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(
      response
        .json<CdsResponse>()
        .cards.map((card) => ({ summary: card.summary, indicator: card.indicator })),
    ).toEqual(expectedCards(diagnosed.expected));
    expect(ehr.seen.map((request) => request.path).sort()).toEqual(
      [path('patient'), path('observations'), path('conditions'), 'Condition?page=2'].sort(),
    );
    expect(new Set(ehr.seen.map((request) => request.authorization))).toEqual(
      new Set(['Bearer record-system-token']),
    );

    // The FHIR server refusing the token is the specification's 412.
    ehr.fhir.set(path('patient'), { status: 401, body: { resourceType: 'OperationOutcome' } });
    const refused = await call(
      await token(),
      body(
        { id, prefetch: {}, expected: {} },
        {
          fhirServer: `${ehr.origin}/fhir`,
          fhirAuthorization: { access_token: 'expired', token_type: 'Bearer' },
        },
      ),
    );
    expect(refused.statusCode).toBe(412);
    expect(refused.json<{ error: { code: string; message: string } }>().error).toEqual({
      code: 'fhir_data_unavailable',
      message: 'The Patient (prefetch key patient) could not be read from the fhirServer.',
    });
    // What the read met is the audit row's, not the caller's.
    expect(await lastAudit()).toMatchObject({
      outcome: 'failure',
      username: issuer,
      detail: '412 patient: answered 401',
    });
  });

  it('answers 412 when a prefetch is missing and no fhirServer is named', async () => {
    const partial = { ...smoker, prefetch: { patient: smoker.prefetch.patient } };
    const response = await call(await token(), body(partial));
    expect(response.statusCode).toBe(412);
    expect(response.json()).toMatchObject({ error: { code: 'fhir_data_unavailable' } });
    expect(await lastAudit()).toMatchObject({ outcome: 'failure', username: issuer });
  });

  it('is in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    expect(Object.keys(document.paths['/cds-services'] ?? {})).toEqual(['get']);
    expect(Object.keys(document.paths['/cds-services/chronic-disease-risk'] ?? {})).toEqual([
      'post',
    ]);
  });
});

describe('the CDS Hooks service reading a FHIR server that does not answer', () => {
  it('gives up after 5 seconds with a 412 that says so, audited', async () => {
    const testDatabase = testDatabases()[0];
    if (testDatabase === undefined) throw new Error('no test database');
    const t = await openTestApp(testDatabase, { PUBLIC_URL: publicUrl });
    const ehr = new StandInServer();
    await ehr.start();
    try {
      const key = await makeSigningKey('ES384', 'slow-key');
      await addCdsClient(t.context, operator, {
        issuer,
        jwks: { keys: [key.publicJwk] },
        fhirServers: [`${ehr.origin}/fhir`],
      });
      ehr.hanging.add('Patient/p-slow');
      const started = Date.now();
      const response = await t.app.inject({
        method: 'POST',
        url: '/cds-services/chronic-disease-risk',
        headers: {
          authorization: `Bearer ${await signCall(key, { issuer, audience: serviceUrl, now: Math.floor(t.context.now().getTime() / 1000) })}`,
        },
        payload: {
          hook: 'patient-view',
          hookInstance: crypto.randomUUID(),
          context: { patientId: 'p-slow' },
          prefetch: { observations: null, conditions: null, familyHistory: null },
          fhirServer: `${ehr.origin}/fhir`,
          fhirAuthorization: { access_token: 'token', token_type: 'Bearer' },
        },
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
      expect(response.statusCode).toBe(412);
      expect(response.json<{ error: { message: string } }>().error.message).toBe(
        'The Patient (prefetch key patient) could not be read from the fhirServer.',
      );
      expect(
        await t.database.db
          .selectFrom('audit_events')
          .select(['outcome', 'detail'])
          .where('action', '=', 'cds_call')
          .execute(),
      ).toEqual([{ outcome: 'failure', detail: '412 patient: no answer within 5 s' }]);
    } finally {
      await ehr.stop();
      await t.close();
    }
  }, 15_000);
});

describe('the CDS Hooks service logs', () => {
  it('carry no patient data, whatever the call', async () => {
    const database = await testDatabases()[0]?.open();
    if (database === undefined) throw new Error('no test database');
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const config = loadConfig({ LOG_LEVEL: 'trace', PUBLIC_URL: publicUrl });
    const context = {
      config,
      database,
      now: () => new Date('2026-11-22T09:00:00Z'),
      passwordCost: testPasswordCost,
    };
    const app = await buildApp({
      context,
      logger: { ...loggerOptions('trace'), stream },
      webRoot: '/nonexistent',
    });
    await app.ready();
    try {
      const key = await makeSigningKey('ES384', 'log-key');
      await addCdsClient(context, operator, { issuer, jwks: { keys: [key.publicJwk] } });
      const now = Math.floor(context.now().getTime() / 1000);
      const send = async (payload: unknown, jwt?: string) =>
        app.inject({
          method: 'POST',
          url: '/cds-services/chronic-disease-risk',
          headers: {
            authorization: `Bearer ${jwt ?? (await signCall(key, { issuer, audience: serviceUrl, now }))}`,
          },
          payload: payload as Record<string, unknown>,
        });
      const call = {
        hook: 'patient-view',
        hookInstance: crypto.randomUUID(),
        context: { patientId: smoker.id },
        prefetch: smoker.prefetch,
      };
      expect((await send(call)).statusCode).toBe(200);
      expect(
        (await send({ ...call, prefetch: { patient: smoker.prefetch.patient } })).statusCode,
      ).toBe(412);
      expect((await send({ ...call, context: { patientId: 'Banda MRN-1001' } })).statusCode).toBe(
        400,
      );
      expect((await send(call, 'not-a-jwt')).statusCode).toBe(401);
      const logged = lines.join('');
      expect(logged).toContain('/cds-services/chronic-disease-risk');
      for (const patientData of ['Banda', 'Joseph', 'MRN-1001', '1960-05-01', smoker.id]) {
        expect(logged, patientData).not.toContain(patientData);
      }
    } finally {
      await app.close();
      await database.close();
    }
  });
});
