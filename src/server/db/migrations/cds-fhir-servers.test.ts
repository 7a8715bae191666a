import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../../shared/api/audit.ts';
import { recordAudit } from '../../services/audit.ts';
import { listCdsClients } from '../../services/cds-clients.ts';
import { openTestApp } from '../../testing/app.ts';
import { makeSigningKey, signCall, StandInServer } from '../../testing/cds-record-system.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { cdsFhirServers } from './20261128T0100-cds-fhir-servers.ts';
import { migrations } from './index.ts';

const operator = { address: 'command line' };
const publicUrl = 'https://triage.example';

describe.each(testDatabases())('the cds-fhir-servers migration on $engine', (testDatabase) => {
  it('adds registered FHIR servers and audit detail to a database with clients and audit rows', async () => {
    const t = await openTestApp(testDatabase, { PUBLIC_URL: publicUrl });
    const ehr = new StandInServer();
    await ehr.start();
    try {
      const db = t.database.db;
      // The database as the version before this migration made it, with a client, a used jti
      // and audit rows in it, one a refused call whose user name is what its token claimed.
      await undoThrough(t.database, cdsFhirServers.name);
      await expect(
        db.selectFrom('cds_client_fhir_servers').selectAll().execute(),
      ).rejects.toThrow();
      await expect(db.selectFrom('audit_events').select('detail').execute()).rejects.toThrow();
      const key = await makeSigningKey('ES384', 'k1');
      const issuer = 'https://ehr.example';
      // Registered as the version before did (its audit row had no detail).
      await db
        .insertInto('cds_clients')
        .values({
          id: '0193a7c0-0000-7000-8000-000000000001',
          issuer,
          jwks: JSON.stringify({ keys: [key.publicJwk] }),
          jwks_url: null,
          created_at: t.context.now().toISOString(),
          created_by: null,
          removed_at: null,
          removed_by: null,
        })
        .execute();
      await recordAudit(db, {
        at: t.context.now(),
        actor: null,
        action: 'cds_client_add',
        target: { type: 'cds_client', id: issuer },
        address: operator.address,
      });
      await db
        .insertInto('cds_jtis')
        .values({ issuer, jti: 'used-before', expires_at: '2026-11-22T09:02:00.000Z' })
        .execute();
      await recordAudit(db, {
        at: t.context.now(),
        actor: { id: null, username: 'admin-claimed' },
        action: 'cds_call',
        target: { type: 'cds_service', id: 'chronic-disease-risk' },
        outcome: 'failure',
        address: '192.0.2.7',
      });
      const auditBefore = await db
        .selectFrom('audit_events')
        .select(['id', 'username', 'action', 'outcome'])
        .orderBy('id')
        .execute();
      expect(auditBefore.map((row) => row.action)).toEqual(['cds_client_add', 'cds_call']);

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(cdsFhirServers)).map((migration) => migration.name),
      );

      // The rows stay as they were; the old ones have no detail.
      expect(
        await db
          .selectFrom('audit_events')
          .select(['id', 'username', 'action', 'outcome', 'detail'])
          .orderBy('id')
          .execute(),
      ).toEqual(auditBefore.map((row) => ({ ...row, detail: null })));
      expect(await db.selectFrom('cds_jtis').select('jti').execute()).toEqual([
        { jti: 'used-before' },
      ]);
      const [client] = await listCdsClients(t.context);
      expect(client).toMatchObject({ issuer, fhirServers: [] });

      // The client registered before has no FHIR server: a call naming one is refused, unread.
      const call = async (jti: string) =>
        t.app.inject({
          method: 'POST',
          url: '/cds-services/chronic-disease-risk',
          headers: {
            authorization: `Bearer ${await signCall(key, {
              issuer,
              audience: `${publicUrl}/cds-services/chronic-disease-risk`,
              now: Math.floor(t.context.now().getTime() / 1000),
              jti,
            })}`,
          },
          payload: {
            hook: 'patient-view',
            hookInstance: '3f1c7a52-8a4e-4c55-9d0e-6c8b1f2a9e11',
            context: { patientId: 'p1' },
            prefetch: { observations: null, conditions: null, familyHistory: null },
            fhirServer: `${ehr.origin}/fhir`,
            fhirAuthorization: { access_token: 'token', token_type: 'Bearer' },
          },
        });
      const refused = await call('after-upgrade');
      expect(refused.statusCode, refused.body).toBe(412);
      expect(refused.json()).toMatchObject({ error: { field: 'fhirServer' } });
      expect(ehr.seen).toEqual([]);
      // The jti spent before the upgrade is still spent.
      expect((await call('used-before')).statusCode).toBe(401);

      // The refused call's claimed name from before is not a user's row in the trail.
      const admin = await signedInAs(t, 'admin', 'admin-claimed');
      const trail = await t.app.inject({
        method: 'GET',
        url: '/api/audit?user=admin-claimed',
        headers: { cookie: admin.cookie },
      });
      expect(trail.statusCode, trail.body).toBe(200);
      const items = trail.json<{ items: AuditEvent[] }>().items;
      expect(items.map((item) => item.action)).toEqual(['login']);

      // A FHIR server belongs to a client that exists.
      await expect(
        db
          .insertInto('cds_client_fhir_servers')
          .values({ client_id: 'nobody', url: 'https://x.example', created_at: '2026-11-22' })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await ehr.stop();
      await t.close();
    }
  });
});
