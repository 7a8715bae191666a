import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Patient } from '../../shared/api/patients.ts';
import { buildApp } from '../app.ts';
import { bulkExportsRepository } from '../db/repositories/bulk-exports.ts';
import { leaseMillis } from '../services/bulk-export.ts';
import { openTestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { bulkRequests, type FhirJson } from '../testing/fhir-bulk.ts';
import { signedInAs } from '../testing/users.ts';

const lines = (resources: FhirJson[]) => resources.map((r) => JSON.stringify(r)).sort();

describe.each(testDatabases())('a bulk export across a restart on $engine', (testDatabase) => {
  it('goes on where it stopped, and takes up a job whose runner stopped writing', async () => {
    const t = await openTestApp(testDatabase, { PUBLIC_URL: 'https://triage.example' });
    let second: FastifyInstance | undefined;
    try {
      const admin = await signedInAs(t, 'admin');
      const nurse = await signedInAs(t, 'nurse');
      for (let index = 0; index < 4; index++) {
        const made = await t.app.inject({
          method: 'POST',
          url: '/api/patients',
          headers: { cookie: nurse.cookie },
          payload: { number: `MRN-${index}`, gender: 'Female' },
        });
        const patient = made.json<Patient>();
        for (const weight of [60, 70, 80]) {
          const saved = await t.app.inject({
            method: 'POST',
            url: '/api/assessments',
            headers: { cookie: nurse.cookie },
            payload: {
              demographics: { age: 40 + index, gender: 'Female', height: 160, weight },
              patientId: patient.id,
            },
          });
          expect(saved.statusCode, saved.body).toBe(201);
        }
      }
      const first = bulkRequests(t);
      const reference = await first.kickOff(admin, '/fhir/$export');
      const { manifest: whole } = await first.manifestOf(
        admin,
        String(reference.headers['content-location']),
      );
      const expected = lines(await first.download(admin, whole));

      // Pages of one row: the run is many transactions, and the app closes between two.
      t.context.bulkExportPageSize = 1;
      const kickOff = await first.kickOff(admin, '/fhir/$export');
      const location = String(kickOff.headers['content-location']);
      const jobId = location.split('/').at(-1) ?? '';
      const job = () => bulkExportsRepository.findJob(t.database.db, jobId);
      for (let turn = 0; ((await job())?.resources_done ?? 0) === 0; turn++) {
        expect(turn).toBeLessThan(10_000);
        await nextTurn();
      }
      await t.app.close();
      const stopped = await job();
      // Handed back where it stood: neither finished nor started again.
      expect(stopped).toMatchObject({ status: 'queued', runner_id: null, completed_at: null });
      expect(stopped?.resources_done).toBeGreaterThan(0);

      // A new app on the same database takes it up at its start and finishes it.
      second = await buildApp({ context: t.context, logger: false, webRoot: '/nonexistent' });
      await second.ready();
      const after = bulkRequests({ app: second });
      const { manifest } = await after.manifestOf(admin, location);
      expect(lines(await after.download(admin, manifest))).toEqual(expected);
      expect((await job())?.attempts).toBe(2);

      // A job left running by an instance that stopped without a word (its process ended) is
      // taken up once it has written nothing for the lease; one cut short too often is failed.
      const orphan = (id: string, attempts: number) =>
        bulkExportsRepository.insertJob(t.database.db, {
          id,
          owner: `user:${admin.userId}`,
          request: 'https://triage.example/fhir/$export',
          types: 'Patient,RiskAssessment,Observation,Condition,Organization',
          since: null,
          scope_unit_ids: null,
          status: 'running',
          transaction_time: t.context.now().toISOString(),
          phase: 0,
          cursor: null,
          resources_done: 0,
          attempts,
          runner_id: 'an-instance-that-stopped',
          heartbeat_at: t.context.now().toISOString(),
          error: null,
          completed_at: null,
          expires_at: null,
        });
      const resumed = '01a2027b-0000-7000-8000-000000000001';
      const given = '01a2027b-0000-7000-8000-000000000002';
      await orphan(resumed, 1);
      await orphan(given, 3);
      await sleep(1_500);
      expect(await bulkExportsRepository.findJob(t.database.db, resumed)).toMatchObject({
        status: 'running',
        runner_id: 'an-instance-that-stopped',
      });
      t.advance(leaseMillis + 1);
      const base = 'https://triage.example/fhir/bulk-status';
      const { manifest: taken } = await after.manifestOf(admin, `${base}/${resumed}`);
      expect(lines(await after.download(admin, taken))).toEqual(expected);
      const failed = await second.inject({
        method: 'GET',
        url: `/fhir/bulk-status/${given}`,
        headers: { cookie: admin.cookie },
      });
      expect(failed.statusCode, failed.body).toBe(500);
      expect(failed.json<FhirJson>()).toEqual({
        resourceType: 'OperationOutcome',
        issue: [
          {
            severity: 'error',
            code: 'exception',
            diagnostics: 'The export was interrupted too often and was stopped; start a new one.',
          },
        ],
      });
    } finally {
      await second?.close();
      await t.database.close();
    }
  });
});
