import * as oauth from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '../../shared/api/patients.ts';
import { addFhirClient } from '../services/fhir-clients.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { makeSigningKey, type SigningKey } from '../testing/cds-record-system.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

const base = 'https://triage.example';
const operator = { user: null, address: 'command line' };

interface SmartConfiguration {
  token_endpoint: string;
  token_endpoint_auth_methods_supported: string[];
  grant_types_supported: string[];
}

/**
 * The SMART Backend Services flow driven by a client library no one on this project wrote
 * (openid-client, a certified OAuth 2.0 client): it reads the SMART configuration, signs its own
 * client assertion (private_key_jwt) and asks for a client-credentials token, whose access token
 * then reads the FHIR API. Its requests reach the app in process through the library's own
 * fetch hook, so what the server sees is exactly what the library sends.
 */
describe.each(testDatabases())('a SMART backend service using openid-client on $engine', (db) => {
  let t: TestApp;
  let key: SigningKey;
  let patient: Patient;

  /** The library's fetch, answered by the app: the request as the library built it. */
  const inProcessFetch: oauth.CustomFetch = async (url, options) => {
    const target = new URL(url);
    const response = await t.app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: Object.fromEntries(new Headers(options.headers).entries()),
      // The library sends its token request as a form (URLSearchParams).
      ...(options.body instanceof URLSearchParams ? { payload: options.body.toString() } : {}),
    });
    return new Response(response.rawPayload, {
      status: response.statusCode,
      headers: Object.entries(response.headers).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, String(value)] as [string, string]],
      ),
    });
  };

  /** The library configured as a backend service would configure it from the discovery. */
  const configuration = async (clientId: string, signingKey: SigningKey) => {
    const discovery = await t.app.inject({
      method: 'GET',
      url: '/fhir/.well-known/smart-configuration',
    });
    const smart = discovery.json<SmartConfiguration>();
    expect(smart.token_endpoint_auth_methods_supported).toContain('private_key_jwt');
    expect(smart.grant_types_supported).toContain('client_credentials');
    const appNow = Math.floor(t.context.now().getTime() / 1000);
    const config = new oauth.Configuration(
      { issuer: `${base}/fhir`, token_endpoint: smart.token_endpoint },
      clientId,
      // The app's clock is not the machine's: the library's skew setting bridges them.
      { [oauth.clockSkew]: appNow - Math.floor(Date.now() / 1000) },
      oauth.PrivateKeyJwt(
        { key: signingKey.privateKey, kid: signingKey.kid },
        {
          // SMART Backend Services: the assertion's audience is the token endpoint.
          [oauth.modifyAssertion]: (_header, payload) => {
            payload.aud = smart.token_endpoint;
          },
        },
      ),
    );
    config[oauth.customFetch] = inProcessFetch;
    return config;
  };

  beforeAll(async () => {
    t = await openTestApp(db, { PUBLIC_URL: base });
    key = await makeSigningKey('RS384', 'warehouse-lib-1');
    await addFhirClient(t.context, operator, {
      clientId: 'warehouse-lib',
      jwks: { keys: [key.publicJwk] },
      scope: 'system/Patient.rs',
    });
    const nurse = await signedInAs(t, 'nurse');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/patients',
      headers: { cookie: nurse.cookie },
      payload: { number: 'MRN-LIB-1', name: 'Lib Patient' },
    });
    patient = created.json<Patient>();
  });
  afterAll(async () => {
    await t.close();
  });

  it('gets a token and reads what its scope allows', async () => {
    const config = await configuration('warehouse-lib', key);
    const tokens = await oauth.clientCredentialsGrant(config, { scope: 'system/Patient.rs' });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expiresIn()).toBeGreaterThan(0);
    expect(tokens.expiresIn()).toBeLessThanOrEqual(300);
    expect(tokens.scope).toBe('system/Patient.rs');

    const read = await t.app.inject({
      method: 'GET',
      url: `/fhir/Patient/${patient.id}`,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<{ id: string }>().id).toBe(patient.id);
    const beyond = await t.app.inject({
      method: 'GET',
      url: '/fhir/RiskAssessment',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(beyond.statusCode).toBe(403);
  });

  it('is refused, as the library reports it, for a scope beyond the registered one', async () => {
    const config = await configuration('warehouse-lib', key);
    const refused = await oauth
      .clientCredentialsGrant(config, { scope: 'system/RiskAssessment.rs' })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(oauth.ResponseBodyError);
    expect((refused as oauth.ResponseBodyError).error).toBe('invalid_scope');
  });

  it('is refused with invalid_client for a key the client did not register', async () => {
    const stranger = await makeSigningKey('RS384', 'warehouse-lib-1');
    const config = await configuration('warehouse-lib', stranger);
    const refused = await oauth.clientCredentialsGrant(config, { scope: 'system/Patient.rs' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(oauth.ResponseBodyError);
    expect((refused as oauth.ResponseBodyError).error).toBe('invalid_client');
  });
});
