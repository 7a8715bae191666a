import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { Patient } from '../../shared/api/patients.ts';
import { addFhirClient, removeFhirClient } from '../services/fhir-clients.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { makeSigningKey, type SigningKey } from '../testing/cds-record-system.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

const tokenEndpoint = 'https://triage.example/api/oauth/token';
const assertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const operator = { user: null, address: 'command line' };

interface AssertionOptions {
  issuer?: string;
  subject?: string;
  audience?: string;
  /** Seconds from the app's now. */
  expiresIn?: number;
  jti?: string;
}

describe.each(testDatabases())('SMART Backend Services on $engine', (testDatabase) => {
  let t: TestApp;
  let warehouseKey: SigningKey;
  let registryKey: SigningKey;
  let amina: Patient;
  let assessment: Assessment;

  /** A client assertion as a backend service signs it with jose: iss = sub = its client id. */
  const assertion = (key: SigningKey, clientId: string, options: AssertionOptions = {}) => {
    const now = Math.floor(t.context.now().getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setIssuer(options.issuer ?? clientId)
      .setSubject(options.subject ?? clientId)
      .setAudience(options.audience ?? tokenEndpoint)
      .setExpirationTime(now + (options.expiresIn ?? 240))
      .setJti(options.jti ?? crypto.randomUUID())
      .sign(key.privateKey);
  };

  const tokenRequest = (form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });

  const askToken = async (clientAssertion: string, scope: string) =>
    tokenRequest({
      grant_type: 'client_credentials',
      client_assertion_type: assertionType,
      client_assertion: clientAssertion,
      scope,
    });

  /** Expects an OAuth error answer (RFC 6749 §5.2) of that status and code. */
  const expectRefusal = (
    response: Awaited<ReturnType<typeof tokenRequest>>,
    status: number,
    error: string,
  ) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{ error: string; error_description: string }>();
    expect(body.error).toBe(error);
    expect(body.error_description).not.toBe('');
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    return body;
  };

  const accessToken = async (key: SigningKey, clientId: string, scope: string) => {
    const response = await askToken(await assertion(key, clientId), scope);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ access_token: string }>().access_token;
  };

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { PUBLIC_URL: 'https://triage.example' });
    warehouseKey = await makeSigningKey('RS384', 'warehouse-1');
    registryKey = await makeSigningKey('ES384', 'registry-1');
    await addFhirClient(t.context, operator, {
      clientId: 'warehouse',
      jwks: { keys: [warehouseKey.publicJwk] },
      scope: 'system/Patient.rs system/RiskAssessment.rs',
    });
    await addFhirClient(t.context, operator, {
      clientId: 'registry',
      jwks: { keys: [registryKey.publicJwk] },
      scope: 'system/Patient.read',
    });
    const nurse = await signedInAs(t, 'nurse');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/patients',
      headers: { cookie: nurse.cookie },
      payload: { number: 'MRN-0042', name: 'Amina Okafor', gender: 'Female' },
    });
    amina = created.json<Patient>();
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: nurse.cookie },
      payload: {
        patientId: amina.id,
        demographics: { age: 58, gender: 'Female', height: 162, weight: 80 },
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    assessment = saved.json<Assessment>();
  });
  afterAll(async () => {
    await t.close();
  });

  it('publishes its SMART configuration to anyone', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/fhir/.well-known/smart-configuration',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      token_endpoint: tokenEndpoint,
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
      grant_types_supported: ['client_credentials'],
      scopes_supported: [
        'system/*.rs',
        'system/Patient.rs',
        'system/RiskAssessment.rs',
        'system/Observation.rs',
        'system/Condition.rs',
        'system/Organization.rs',
      ],
      capabilities: ['client-confidential-asymmetric'],
    });
  });

  it('issues a short-lived access token for a good assertion, keeping only its hash; audited', async () => {
    const response = await askToken(
      await assertion(warehouseKey, 'warehouse'),
      'system/RiskAssessment.rs',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{ access_token: string }>();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^triage-fhir_[A-Za-z0-9_-]{43}$/) as string,
      token_type: 'bearer',
      expires_in: 300,
      scope: 'system/RiskAssessment.rs',
    });
    const stored = await t.database.db.selectFrom('fhir_access_tokens').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(body.access_token.slice('triage-fhir_'.length));
    expect(
      await t.database.db
        .selectFrom('audit_events')
        .select(['username', 'action', 'target_id', 'outcome', 'detail'])
        .where('action', '=', 'fhir_token')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      username: 'fhir-client:warehouse',
      action: 'fhir_token',
      target_id: 'warehouse',
      outcome: 'success',
      detail: 'system/RiskAssessment.rs',
    });
  });

  it('grants a v1 .read scope as its v2 equivalent, and a narrower scope than registered', async () => {
    const v1 = await askToken(await assertion(registryKey, 'registry'), 'system/Patient.read');
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json<{ scope: string }>().scope).toBe('system/Patient.rs');
    const narrower = await askToken(await assertion(registryKey, 'registry'), 'system/Patient.r');
    expect(narrower.json<{ scope: string }>().scope).toBe('system/Patient.r');
  });

  it('refuses a reused jti', async () => {
    const jti = crypto.randomUUID();
    const first = await askToken(
      await assertion(warehouseKey, 'warehouse', { jti }),
      'system/Patient.rs',
    );
    expect(first.statusCode, first.body).toBe(200);
    const again = await askToken(
      await assertion(warehouseKey, 'warehouse', { jti }),
      'system/Patient.rs',
    );
    expect(expectRefusal(again, 401, 'invalid_client').error_description).toContain('jti');
  });

  it('refuses an assertion for another audience, even this host by another name', async () => {
    for (const audience of [
      'https://elsewhere.example/api/oauth/token',
      'http://localhost:80/api/oauth/token',
      'https://triage.example/fhir',
    ]) {
      const response = await askToken(
        await assertion(warehouseKey, 'warehouse', { audience }),
        'system/Patient.rs',
      );
      expect(expectRefusal(response, 401, 'invalid_client').error_description).toContain('aud');
    }
  });

  it('refuses an expired assertion and one that expires more than 5 minutes ahead', async () => {
    const expired = await assertion(warehouseKey, 'warehouse', { expiresIn: 60 });
    t.advance(120_000);
    expectRefusal(await askToken(expired, 'system/Patient.rs'), 401, 'invalid_client');
    const farAhead = await assertion(warehouseKey, 'warehouse', { expiresIn: 600 });
    expect(
      expectRefusal(await askToken(farAhead, 'system/Patient.rs'), 401, 'invalid_client')
        .error_description,
    ).toContain('5 minutes');
  });

  it('refuses an unknown client, a bad signature, and a sub that is not the client', async () => {
    expectRefusal(
      await askToken(await assertion(warehouseKey, 'stranger'), 'system/Patient.rs'),
      401,
      'invalid_client',
    );
    // Signed by another key under the registered key's kid.
    const impostor = await makeSigningKey('RS384', 'warehouse-1');
    expect(
      expectRefusal(
        await askToken(await assertion(impostor, 'warehouse'), 'system/Patient.rs'),
        401,
        'invalid_client',
      ).error_description,
    ).toContain('signature');
    expectRefusal(
      await askToken(
        await assertion(warehouseKey, 'warehouse', { subject: 'registry' }),
        'system/Patient.rs',
      ),
      401,
      'invalid_client',
    );
  });

  it('refuses a scope beyond the registered one, or not a system read scope', async () => {
    for (const scope of [
      'system/Observation.rs',
      'system/*.rs',
      'system/Patient.rs system/Condition.r',
      'system/Patient.cruds',
      'patient/Patient.rs',
    ]) {
      expectRefusal(
        await askToken(await assertion(warehouseKey, 'warehouse'), scope),
        400,
        'invalid_scope',
      );
    }
    expectRefusal(
      await askToken(await assertion(registryKey, 'registry'), 'system/RiskAssessment.rs'),
      400,
      'invalid_scope',
    );
  });

  it('refuses a request that is not a client credentials grant with a JWT assertion', async () => {
    const good = await assertion(warehouseKey, 'warehouse');
    expectRefusal(
      await tokenRequest({
        grant_type: 'authorization_code',
        client_assertion_type: assertionType,
        client_assertion: good,
        scope: 'system/Patient.rs',
      }),
      400,
      'unsupported_grant_type',
    );
    expectRefusal(
      await tokenRequest({ grant_type: 'client_credentials', client_assertion: good }),
      400,
      'invalid_request',
    );
    const asJson = await t.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      payload: {
        grant_type: 'client_credentials',
        client_assertion_type: assertionType,
        client_assertion: good,
        scope: 'system/Patient.rs',
      },
    });
    expectRefusal(asJson, 400, 'invalid_request');
    const twice = await t.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=client_credentials&grant_type=client_credentials&client_assertion_type=${encodeURIComponent(assertionType)}&client_assertion=${good}&scope=system/Patient.rs`,
    });
    expectRefusal(twice, 400, 'invalid_request');
  });

  it("lets a system-scoped token read only what its scope allows, audited as the client's reads", async () => {
    const patientOnly = await accessToken(registryKey, 'registry', 'system/Patient.rs');
    const bearer = { authorization: `Bearer ${patientOnly}` };
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer });

    const patient = await get(`/fhir/Patient/${amina.id}`);
    expect(patient.statusCode, patient.body).toBe(200);
    expect(patient.json<{ id: string }>().id).toBe(amina.id);
    const search = await get('/fhir/Patient?identifier=MRN-0042');
    expect(search.statusCode, search.body).toBe(200);

    const main = await t.database.db
      .selectFrom('org_units')
      .select('id')
      .where('code', '=', 'MAIN')
      .executeTakeFirstOrThrow();
    for (const url of [
      `/fhir/RiskAssessment/${assessment.id}.DM2`,
      `/fhir/RiskAssessment?patient=${amina.id}`,
      `/fhir/Observation/${assessment.id}.bmi`,
      `/fhir/Organization/${main.id}`,
    ]) {
      const refused = await get(url);
      expect(refused.statusCode, url).toBe(403);
      expect(
        refused.json<{ resourceType: string; issue: Array<{ code: string }> }>(),
      ).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ code: 'forbidden' }],
      });
      expect(refused.body).not.toContain('MRN-0042');
    }
    const searchByPost = await t.app.inject({
      method: 'POST',
      url: '/fhir/RiskAssessment/_search',
      headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `patient=${amina.id}`,
    });
    expect(searchByPost.statusCode).toBe(403);

    // A read-only token (`.r`) may read by id but not search.
    const readOnly = await accessToken(registryKey, 'registry', 'system/Patient.r');
    const byId = await t.app.inject({
      method: 'GET',
      url: `/fhir/Patient/${amina.id}`,
      headers: { authorization: `Bearer ${readOnly}` },
    });
    expect(byId.statusCode).toBe(200);
    const searched = await t.app.inject({
      method: 'GET',
      url: '/fhir/Patient?identifier=MRN-0042',
      headers: { authorization: `Bearer ${readOnly}` },
    });
    expect(searched.statusCode).toBe(403);

    // The token with RiskAssessment in its scope reads them.
    const both = await accessToken(
      warehouseKey,
      'warehouse',
      'system/RiskAssessment.rs system/Patient.rs',
    );
    const risk = await t.app.inject({
      method: 'GET',
      url: `/fhir/RiskAssessment?patient=${amina.id}`,
      headers: { authorization: `Bearer ${both}` },
    });
    expect(risk.statusCode, risk.body).toBe(200);

    const reads = await t.database.db
      .selectFrom('audit_events')
      .select(['username', 'action', 'target_type', 'outcome'])
      .where('action', '=', 'fhir_read')
      .orderBy('id')
      .execute();
    expect(reads).toEqual([
      {
        username: 'fhir-client:registry',
        action: 'fhir_read',
        target_type: 'Patient',
        outcome: 'success',
      },
      {
        username: 'fhir-client:registry',
        action: 'fhir_read',
        target_type: 'Patient',
        outcome: 'success',
      },
      ...Array.from({ length: 5 }, () => ({
        username: 'fhir-client:registry',
        action: 'fhir_read',
        target_type: 'route',
        outcome: 'failure',
      })),
      {
        username: 'fhir-client:registry',
        action: 'fhir_read',
        target_type: 'Patient',
        outcome: 'success',
      },
      {
        username: 'fhir-client:registry',
        action: 'fhir_read',
        target_type: 'route',
        outcome: 'failure',
      },
      {
        username: 'fhir-client:warehouse',
        action: 'fhir_read',
        target_type: 'RiskAssessment',
        outcome: 'success',
      },
    ]);
  });

  it('refuses an access token once expired, and once its client is removed', async () => {
    const token = await accessToken(warehouseKey, 'warehouse', 'system/Patient.rs');
    const read = () =>
      t.app.inject({
        method: 'GET',
        url: `/fhir/Patient/${amina.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await read()).statusCode).toBe(200);
    t.advance(301_000);
    expect((await read()).statusCode).toBe(401);

    const fresh = await accessToken(registryKey, 'registry', 'system/Patient.rs');
    await removeFhirClient(t.context, operator, 'registry');
    const afterRemoval = await t.app.inject({
      method: 'GET',
      url: `/fhir/Patient/${amina.id}`,
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(afterRemoval.statusCode).toBe(401);
    expect(afterRemoval.json<{ resourceType: string }>().resourceType).toBe('OperationOutcome');
    expectRefusal(
      await askToken(await assertion(registryKey, 'registry'), 'system/Patient.rs'),
      401,
      'invalid_client',
    );
  });
});
