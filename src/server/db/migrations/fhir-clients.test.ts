import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import type { Patient } from '../../../shared/api/patients.ts';
import { createApiToken } from '../../services/api-tokens.ts';
import { addFhirClient } from '../../services/fhir-clients.ts';
import { openTestApp } from '../../testing/app.ts';
import { makeSigningKey } from '../../testing/cds-record-system.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { fhirClients } from './20261128T1500-fhir-clients.ts';
import { migrations } from './index.ts';

describe.each(testDatabases())('the fhir-clients migration on $engine', (testDatabase) => {
  it('adds the FHIR client tables to a database with records and API tokens; both then read', async () => {
    const t = await openTestApp(testDatabase, { PUBLIC_URL: 'https://triage.example' });
    try {
      const nurse = await signedInAs(t, 'nurse');
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/patients',
        headers: { cookie: nurse.cookie },
        payload: { number: 'MRN-1', name: 'Thandi Mokoena', gender: 'Female' },
      });
      expect(made.statusCode, made.body).toBe(201);
      const patient = made.json<Patient>();
      const saved = await t.app.inject({
        method: 'POST',
        url: '/api/assessments',
        headers: { cookie: nurse.cookie },
        payload: { demographics: { age: 50, gender: 'Female' }, patientId: patient.id },
      });
      expect(saved.statusCode, saved.body).toBe(201);
      const assessment = saved.json<Assessment>();
      const operator = { user: null, address: 'command line' };

      // The database as the version before this migration made it, with these rows and an API
      // token in it.
      await undoThrough(t.database, fhirClients.name);
      const { token } = await createApiToken(t.context, operator, 'his');
      for (const table of ['fhir_clients', 'fhir_client_jtis', 'fhir_access_tokens'] as const) {
        await expect(t.database.db.selectFrom(table).selectAll().execute()).rejects.toThrow();
      }

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(fhirClients)).map((migration) => migration.name),
      );
      expect(await t.database.db.selectFrom('fhir_clients').selectAll().execute()).toEqual([]);

      // The API token made before still reads.
      const url = `/fhir/RiskAssessment?subject=Patient/${patient.id}`;
      const byApiToken = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(byApiToken.statusCode, byApiToken.body).toBe(200);
      expect(byApiToken.body).toContain(`${assessment.id}.DM2`);

      // A client registered now gets a token that reads the same.
      const key = await makeSigningKey('ES384', 'k1');
      await addFhirClient(t.context, operator, {
        clientId: 'warehouse',
        jwks: { keys: [key.publicJwk] },
        scope: 'system/*.rs',
      });
      const now = Math.floor(t.context.now().getTime() / 1000);
      const assertion = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES384', kid: 'k1' })
        .setIssuer('warehouse')
        .setSubject('warehouse')
        .setAudience('https://triage.example/api/oauth/token')
        .setExpirationTime(now + 60)
        .setJti(crypto.randomUUID())
        .sign(key.privateKey);
      const issued = await t.app.inject({
        method: 'POST',
        url: '/api/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
          scope: 'system/RiskAssessment.rs',
        }).toString(),
      });
      expect(issued.statusCode, issued.body).toBe(200);
      const byAccessToken = await t.app.inject({
        method: 'GET',
        url,
        headers: {
          authorization: `Bearer ${issued.json<{ access_token: string }>().access_token}`,
        },
      });
      expect(byAccessToken.statusCode, byAccessToken.body).toBe(200);
      expect(byAccessToken.json<{ total: number }>().total).toBe(
        byApiToken.json<{ total: number }>().total,
      );

      // A live client id is unique; the check admits exactly one source of keys.
      const row = {
        id: 'second',
        client_id: 'warehouse',
        jwks: '{"keys":[]}',
        jwks_url: null,
        scopes: 'system/*.rs',
        created_at: '2026-11-22T10:00:00.000Z',
        created_by: null,
        removed_at: null,
        removed_by: null,
      };
      await expect(
        t.database.db.insertInto('fhir_clients').values(row).execute(),
      ).rejects.toThrow();
      await expect(
        t.database.db
          .insertInto('fhir_clients')
          .values({ ...row, client_id: 'other', jwks: null })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await t.close();
    }
  });
});
