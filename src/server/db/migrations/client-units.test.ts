import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import { createApiToken } from '../../services/api-tokens.ts';
import { addCdsClient } from '../../services/cds-clients.ts';
import { addFhirClient } from '../../services/fhir-clients.ts';
import { openTestApp, type TestApp } from '../../testing/app.ts';
import { makeSigningKey } from '../../testing/cds-record-system.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { requestsAs } from '../../testing/requests.ts';
import { lowRiskBody } from '../../testing/risk-bodies.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { clientUnits } from './20261128T1610-client-units.ts';
import { migrations } from './index.ts';

const operator = { user: null, address: 'command line' };
const tables = ['api_tokens', 'cds_clients', 'fhir_clients'] as const;

/** A token, a CDS client and a FHIR client, registered by this version's services. */
async function registerClients(t: TestApp, suffix: string): Promise<string> {
  const key = await makeSigningKey('ES384', 'k1');
  const { token } = await createApiToken(t.context, operator, `his-${suffix}`);
  await addCdsClient(t.context, operator, {
    issuer: `https://ehr-${suffix}.example`,
    jwks: { keys: [key.publicJwk] },
  });
  await addFhirClient(t.context, operator, {
    clientId: `warehouse-${suffix}`,
    jwks: { keys: [key.publicJwk] },
    scope: 'system/*.rs',
  });
  return token;
}

/** Each table's rows as they are, without their unit. */
async function rowsOf(t: TestApp) {
  const db = t.database.db;
  return {
    api_tokens: await db.selectFrom('api_tokens').selectAll().orderBy('id').execute(),
    cds_clients: await db.selectFrom('cds_clients').selectAll().orderBy('id').execute(),
    fhir_clients: await db.selectFrom('fhir_clients').selectAll().orderBy('id').execute(),
  };
}

function withoutUnit<Row extends { org_unit_id?: string }>(rows: Row[]) {
  return rows.map(({ org_unit_id: _unit, ...row }) => row);
}

describe.each(testDatabases())('the client-units migration on $engine', (testDatabase) => {
  it('puts the tokens and clients of the version before in MAIN, where they read as before', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const db = t.database.db;
      const nurse = await signedInAs(t, 'nurse');
      const saved = await requestsAs(t)(nurse, 'POST', '/api/assessments', {
        ...lowRiskBody,
        newPatient: { number: 'CU-1' },
      });
      expect(saved.statusCode, saved.body).toBe(201);
      const patientId = saved.json<Assessment>().patient?.id ?? '';
      const token = await registerClients(t, 'a');

      // The database as the version before made it: the rows without a unit.
      await undoThrough(t.database, clientUnits.name);
      for (const table of tables) {
        await expect(db.selectFrom(table).select('org_unit_id').execute()).rejects.toThrow();
      }
      const before = await rowsOf(t);
      for (const table of tables) expect(before[table], table).toHaveLength(1);

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(clientUnits)).map((migration) => migration.name),
      );
      const main = await db
        .selectFrom('org_units')
        .select('id')
        .where('code', '=', 'MAIN')
        .executeTakeFirstOrThrow();
      const after = await rowsOf(t);
      for (const table of tables) {
        expect(withoutUnit<{ org_unit_id?: string }>(after[table]), table).toEqual(before[table]);
        expect(
          after[table].map((row) => row.org_unit_id),
          table,
        ).toEqual([main.id]);
      }

      // The token made before reads MAIN's records as it did.
      const read = await t.app.inject({
        method: 'GET',
        url: `/fhir/Patient/${patientId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(read.statusCode, read.body).toBe(200);

      // A unit that does not exist is refused on both engines.
      for (const table of tables) {
        await expect(
          db.updateTable(table).set({ org_unit_id: 'nowhere' }).execute(),
          table,
        ).rejects.toThrow();
      }
      // PostgreSQL keeps no default: an insert must name the unit.
      if (t.database.engine === 'postgres') {
        await expect(
          db
            .insertInto('api_tokens')
            .values({
              id: 'no-unit',
              name: 'no-unit',
              token_hash: 'x',
              created_at: '2026-11-22T10:00:00.000Z',
              created_by: null,
              revoked_at: null,
              last_used_at: null,
            })
            .execute(),
        ).rejects.toThrow();
      }
    } finally {
      await t.close();
    }
  });

  it('finds MAIN renamed as the unit its migration made, and refuses when it cannot be told apart', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const db = t.database.db;
      await registerClients(t, 'b');
      const main = await db
        .selectFrom('org_units')
        .selectAll()
        .where('code', '=', 'MAIN')
        .executeTakeFirstOrThrow();
      await undoThrough(t.database, clientUnits.name);
      await db
        .updateTable('org_units')
        .set({ code: 'HQ', code_key: 'hq' })
        .where('id', '=', main.id)
        .execute();
      // A unit made since the org-units migration ran.
      const later = new Date(Date.now() + 60_000).toISOString();
      await db
        .insertInto('org_units')
        .values({
          id: 'later-unit',
          code: 'LATER',
          code_key: 'later',
          name: 'Made later',
          parent_id: main.id,
          version: 1,
          closed_at: null,
          created_at: later,
          updated_at: later,
        })
        .execute();

      await migrateToLatest(t.database);
      for (const table of tables) {
        expect(
          (await db.selectFrom(table).select('org_unit_id').execute()).map((r) => r.org_unit_id),
          table,
        ).toEqual([main.id]);
      }

      // A unit dated before that migration ran: the one it made can no longer be told apart.
      await undoThrough(t.database, clientUnits.name);
      await db
        .insertInto('org_units')
        .values({
          id: 'backdated-unit',
          code: 'OLDER',
          code_key: 'older',
          name: 'Dated before',
          parent_id: null,
          version: 1,
          closed_at: null,
          created_at: '2020-01-01T00:00:00.000Z',
          updated_at: '2020-01-01T00:00:00.000Z',
        })
        .execute();
      await expect(migrateToLatest(t.database)).rejects.toThrow(
        'Migration 20261128T1610-client-units failed: No unit has the code MAIN, and the unit the migration 20261128T1300-org-units made cannot be told from the others: give the code MAIN back to the unit every earlier record was put in, then start again.',
      );
      for (const table of tables) {
        await expect(db.selectFrom(table).select('org_unit_id').execute()).rejects.toThrow();
      }
    } finally {
      await t.close();
    }
  });
});
