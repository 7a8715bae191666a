import { describe, expect, it } from 'vitest';
import type { Patient } from '../../../shared/api/patients.ts';
import { addCdsClient, removeCdsClient } from '../../services/cds-clients.ts';
import { openTestApp } from '../../testing/app.ts';
import { makeSigningKey } from '../../testing/cds-record-system.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { cdsClients } from './20261125T0600-cds-clients.ts';
import { migrations } from './index.ts';

const operator = { user: null, address: 'command line' };

describe.each(testDatabases())('the cds-clients migration on $engine', (testDatabase) => {
  it('adds the client and jti tables to a database with patients, which stay as they were', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const nurse = await signedInAs(t, 'nurse');
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/patients',
        headers: { cookie: nurse.cookie },
        payload: { number: 'MRN-1', name: 'Ada Mwale', birthDate: '1970-01-02' },
      });
      expect(made.statusCode, made.body).toBe(201);
      const read = async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/patients/${made.json<Patient>().id}`,
            headers: { cookie: nurse.cookie },
          })
        ).json<Patient>();
      const before = await read();

      // The database as the version before this migration made it, with these rows in it.
      await undoThrough(t.database, cdsClients.name);
      // This test's schema only: on PostgreSQL introspection lists other tests' schemas too.
      const tables = async () =>
        (await t.database.db.introspection.getTables())
          .filter((table) => t.database.schema === undefined || table.schema === t.database.schema)
          .map((table) => table.name);
      expect(await tables()).not.toContain('cds_clients');
      expect(await tables()).not.toContain('cds_jtis');

      const applied = await migrateToLatest(t.database);
      expect(applied[0]).toBe(cdsClients.name);
      expect(applied).toEqual(
        migrations.slice(migrations.indexOf(cdsClients)).map((migration) => migration.name),
      );
      expect(await tables()).toEqual(expect.arrayContaining(['cds_clients', 'cds_jtis']));
      expect(await read()).toEqual(before);

      // A client registers, is unique among live clients, and may be registered again once removed.
      const key = await makeSigningKey('ES384', 'k1');
      const jwks = { keys: [key.publicJwk] };
      await addCdsClient(t.context, operator, { issuer: 'https://ehr.example', jwks });
      await expect(
        addCdsClient(t.context, operator, { issuer: 'https://ehr.example', jwks }),
      ).rejects.toMatchObject({ status: 409 });
      await removeCdsClient(t.context, operator, 'https://ehr.example');
      await addCdsClient(t.context, operator, { issuer: 'https://ehr.example', jwks });
      const rows = await t.database.db
        .selectFrom('cds_clients')
        .select(['issuer', 'removed_at'])
        .execute();
      expect(rows.map((row) => [row.issuer, row.removed_at === null]).sort()).toEqual([
        ['https://ehr.example', false],
        ['https://ehr.example', true],
      ]);
      // Both a stored JWK Set and a URL at once are refused by the table itself.
      await expect(
        t.database.db
          .insertInto('cds_clients')
          .values({
            id: 'x',
            issuer: 'https://both.example',
            jwks: '{}',
            jwks_url: 'https://both.example/jwks',
            created_at: new Date().toISOString(),
            created_by: null,
            removed_at: null,
            removed_by: null,
          })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await t.close();
    }
  });
});
