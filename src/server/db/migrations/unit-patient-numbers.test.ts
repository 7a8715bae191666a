import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import type { OrgUnit, OrgUnitTree } from '../../../shared/api/org-units.ts';
import type { Patient } from '../../../shared/api/patients.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { requestsAs } from '../../testing/requests.ts';
import { lowRiskBody } from '../../testing/risk-bodies.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { unitPatientNumbers } from './20261128T1630-unit-patient-numbers.ts';

describe.each(testDatabases())(
  'the unit-patient-numbers and unit-history-index migrations on $engine',
  (testDatabase) => {
    it('keeps the records of before and then numbers patients within each unit', async () => {
      const t = await openTestApp(testDatabase);
      try {
        const call = requestsAs(t);
        const admin = await signedInAs(t, 'admin');
        const tree = await call(admin, 'GET', '/api/org-units');
        const main = tree.json<OrgUnitTree>().items[0];
        if (main === undefined) throw new Error('No MAIN unit');
        const facility = (
          await call(admin, 'POST', '/api/org-units', { code: 'F-1', name: 'F', parentId: main.id })
        ).json<OrgUnit>();

        // The database as the version before made it: numbers unique over every unit.
        await undoThrough(t.database, unitPatientNumbers.name);
        const nurse = await signedInAs(t, 'nurse', 'nurse-main', undefined, [main.id]);
        const before = await call(nurse, 'POST', '/api/patients', { number: 'N-1' });
        expect(before.statusCode, before.body).toBe(201);
        const saved = await call(nurse, 'POST', '/api/assessments', {
          ...lowRiskBody,
          patientId: before.json<Patient>().id,
        });
        expect(saved.statusCode, saved.body).toBe(201);
        await expect(
          t.database.db
            .insertInto('patient_records')
            .values({
              id: 'elsewhere',
              number: 'n-1',
              number_key: 'n-1',
              version: 1,
              created_at: '2026-11-28T08:00:00.000Z',
              updated_at: '2026-11-28T08:00:00.000Z',
              org_unit_id: facility.id,
            })
            .execute(),
        ).rejects.toThrow();

        await migrateToLatest(t.database);
        // The record of before is as it was, and its number is taken within its unit only.
        const kept = await call(nurse, 'GET', `/api/patients/${before.json<Patient>().id}`);
        expect(kept.json<Patient>().number).toBe('N-1');
        expect((await call(nurse, 'POST', '/api/patients', { number: 'n-1' })).statusCode).toBe(
          409,
        );
        const atFacility = await signedInAs(t, 'nurse', 'nurse-f1', undefined, [facility.id]);
        const there = await call(atFacility, 'POST', '/api/patients', { number: 'n-1' });
        expect(there.statusCode, there.body).toBe(201);
        // The history of a unit is read from its own range of the new index.
        const history = await call(nurse, 'GET', `/api/assessments?unit=${main.id}`);
        expect(history.json<{ items: Assessment[] }>().items.map((item) => item.id)).toEqual([
          saved.json<Assessment>().id,
        ]);
        const indexes =
          t.database.engine === 'postgres'
            ? await sql<{ name: string }>`select indexname as name from pg_indexes
              where tablename in ('assessments', 'patient_records')`.execute(t.database.db)
            : await sql<{ name: string }>`select name from sqlite_schema
              where type = 'index' and tbl_name in ('assessments', 'patient_records')`.execute(
                t.database.db,
              );
        const names = indexes.rows.map((row) => row.name);
        expect(names).toContain('assessments_live_unit_idx');
        expect(names).toContain('patient_records_unit_number_idx');
        expect(names).not.toContain('patient_records_live_number_idx');
      } finally {
        await t.close();
      }
    });
  },
);
