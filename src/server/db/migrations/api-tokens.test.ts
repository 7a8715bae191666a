import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import type { Patient } from '../../../shared/api/patients.ts';
import { createApiToken } from '../../services/api-tokens.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { apiTokens } from './20261125T0610-api-tokens.ts';
import { migrations } from './index.ts';

describe.each(testDatabases())('the api-tokens migration on $engine', (testDatabase) => {
  it('adds the token table to a database with records; a token made then reads them', async () => {
    const t = await openTestApp(testDatabase);
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

      // The database as the version before this migration made it, with these rows in it.
      await undoThrough(t.database, apiTokens.name);
      // (Not by introspection: on PostgreSQL it lists the tables of other tests' schemas too.)
      await expect(t.database.db.selectFrom('api_tokens').selectAll().execute()).rejects.toThrow();

      // This migration, and any made after it.
      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(apiTokens)).map((migration) => migration.name),
      );
      expect(await t.database.db.selectFrom('api_tokens').selectAll().execute()).toEqual([]);
      const operator = { user: null, address: 'command line' };
      const { token } = await createApiToken(t.context, operator, 'his');
      const read = await t.app.inject({
        method: 'GET',
        url: `/fhir/RiskAssessment?subject=Patient/${patient.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json<{ total: number }>().total).toBe(6);
      expect(read.body).toContain(`${assessment.id}.DM2`);

      // A live name is unique; a revoked one may be given again (the partial index).
      await expect(createApiToken(t.context, operator, 'his')).rejects.toThrow(/already named/);
      await t.database.db
        .updateTable('api_tokens')
        .set({ revoked_at: '2026-11-22T10:00:00.000Z' })
        .execute();
      await createApiToken(t.context, operator, 'his');
      await expect(
        t.database.db
          .insertInto('api_tokens')
          .values({
            id: 'duplicate-live-name',
            name: 'his',
            token_hash: 'x',
            created_at: '2026-11-22T10:00:00.000Z',
            created_by: null,
            revoked_at: null,
            last_used_at: null,
          })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await t.close();
    }
  });
});
