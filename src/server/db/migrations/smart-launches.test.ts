import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import type { Patient } from '../../../shared/api/patients.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { requestsAs } from '../../testing/requests.ts';
import { lowRiskBody } from '../../testing/risk-bodies.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { smartLaunchesRepository } from '../repositories/smart-launches.ts';
import { smartLaunches } from './20261129T0100-smart-launches.ts';
import { migrations } from './index.ts';

describe.each(testDatabases())('the smart-launches migration on $engine', (testDatabase) => {
  it('adds the launches beside the records of before, which stay as they were', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const db = t.database.db;
      // The database as the version before made it, with a patient record and an assessment.
      await undoThrough(t.database, smartLaunches.name);
      await expect(db.selectFrom('smart_launches').selectAll().execute()).rejects.toThrow();
      const call = requestsAs(t);
      const nurse = await signedInAs(t, 'nurse', 'nurse-before-upgrade');
      const patient = (
        await call(nurse, 'POST', '/api/patients', { number: 'S-1' })
      ).json<Patient>();
      const saved = await call(nurse, 'POST', '/api/assessments', {
        ...lowRiskBody,
        patientId: patient.id,
      });
      expect(saved.statusCode, saved.body).toBe(201);

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(smartLaunches)).map((migration) => migration.name),
      );
      const kept = await call(nurse, 'GET', `/api/assessments/${saved.json<Assessment>().id}`);
      expect(kept.json<Assessment>().patient?.id).toBe(patient.id);

      // A launch refers to the user who took it up and the patient record it opened.
      await smartLaunchesRepository.insert(
        db,
        {
          id: 'launch-1',
          binding_hash: 'hash-1',
          issuer: 'https://ehr.example/fhir',
          state_key: 'state-1',
          client_state: '{}',
          created_at: '2026-11-22T09:00:00.000Z',
        },
        '2026-11-21T09:00:00.000Z',
      );
      expect(await smartLaunchesRepository.claim(db, 'launch-1', nurse.userId)).toBe(true);
      await smartLaunchesRepository.update(db, 'launch-1', { patient_record_id: patient.id });
      expect(await smartLaunchesRepository.findByStateKey(db, 'state-1')).toMatchObject({
        user_id: nurse.userId,
        patient_record_id: patient.id,
        record: null,
      });
      // A state is sent once: a second launch with it is refused by the database.
      await expect(
        db
          .insertInto('smart_launches')
          .values({
            id: 'launch-2',
            binding_hash: 'hash-2',
            issuer: 'https://ehr.example/fhir',
            state_key: 'state-1',
            client_state: '{}',
            created_at: '2026-11-22T09:00:00.000Z',
          })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await t.close();
    }
  });
});
