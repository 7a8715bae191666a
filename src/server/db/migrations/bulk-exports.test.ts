import { describe, expect, it } from 'vitest';
import type { Patient } from '../../../shared/api/patients.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { bulkRequests } from '../../testing/fhir-bulk.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { bulkExports } from './20261128T1620-bulk-exports.ts';
import { migrations } from './index.ts';

describe.each(testDatabases())('the bulk-exports migration on $engine', (testDatabase) => {
  it('adds the job and chunk tables to a database with records; an export then runs', async () => {
    const t = await openTestApp(testDatabase, { PUBLIC_URL: 'https://triage.example' });
    try {
      const nurse = await signedInAs(t, 'nurse');
      const admin = await signedInAs(t, 'admin');
      // The database as the version before this migration made it, with records in it.
      await undoThrough(t.database, bulkExports.name);
      for (const table of ['bulk_export_jobs', 'bulk_export_chunks'] as const) {
        await expect(t.database.db.selectFrom(table).selectAll().execute()).rejects.toThrow();
      }
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

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(bulkExports)).map((migration) => migration.name),
      );
      expect(await t.database.db.selectFrom('bulk_export_jobs').selectAll().execute()).toEqual([]);

      // The records made before are exported.
      const bulk = bulkRequests(t);
      const kickOff = await bulk.kickOff(admin, '/fhir/$export?_type=Patient,RiskAssessment');
      expect(kickOff.statusCode, kickOff.body).toBe(202);
      const { manifest } = await bulk.manifestOf(
        admin,
        String(kickOff.headers['content-location']),
      );
      const resources = await bulk.download(admin, manifest);
      expect(resources.filter((r) => r.resourceType === 'Patient').map((r) => r.id)).toEqual([
        patient.id,
      ]);
      expect(resources.filter((r) => r.resourceType === 'RiskAssessment')).toHaveLength(6);

      // A job's status is one of four; a chunk names a job that exists.
      const job = await t.database.db
        .selectFrom('bulk_export_jobs')
        .selectAll()
        .executeTakeFirstOrThrow();
      await expect(
        t.database.db
          .insertInto('bulk_export_jobs')
          .values({
            ...job,
            id: '01a2027b-0000-7000-8000-00000000000f',
            status: 'paused' as 'queued',
          })
          .execute(),
      ).rejects.toThrow();
      await expect(
        t.database.db
          .insertInto('bulk_export_chunks')
          .values({
            job_id: '01a2027b-0000-7000-8000-00000000000e',
            resource_type: 'Patient',
            file_index: 1,
            chunk_index: 0,
            line_count: 0,
            ndjson_gzip: new Uint8Array(0),
          })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await t.close();
    }
  });
});
