import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import type { User } from '../../../shared/api/users.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { patientRecords } from '../../testing/follow-ups.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { requestsAs } from '../../testing/requests.ts';
import { highRiskBody, lowRiskBody } from '../../testing/risk-bodies.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { orgUnits } from './20261128T1300-org-units.ts';
import { migrations } from './index.ts';

const at = '2026-11-22T08:00:00.000Z';

describe.each(testDatabases())('the org-units migration on $engine', (testDatabase) => {
  it('puts every user, patient record and assessment of the version before in MAIN', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const db = t.database.db;
      const call = requestsAs(t);
      const nurse = await signedInAs(t, 'nurse');
      const admin = await signedInAs(t, 'admin');
      const [one, two] = await patientRecords(t, nurse, ['U-1', 'U-2']);
      const saved: string[] = [];
      for (const body of [
        { ...highRiskBody, patientId: one.id },
        { ...lowRiskBody, patientId: two.id },
        lowRiskBody,
      ]) {
        const response = await call(nurse, 'POST', '/api/assessments', body);
        expect(response.statusCode, response.body).toBe(201);
        saved.push(response.json<Assessment>().id);
      }

      // The database as the version before made it: no units anywhere, and rows written there.
      await undoThrough(t.database, orgUnits.name);
      await expect(db.selectFrom('org_units').selectAll().execute()).rejects.toThrow();
      await expect(db.selectFrom('user_units').selectAll().execute()).rejects.toThrow();
      await expect(db.selectFrom('assessments').select('org_unit_id').execute()).rejects.toThrow();
      await expect(
        db.selectFrom('patient_records').select('org_unit_id').execute(),
      ).rejects.toThrow();
      await db
        .insertInto('users')
        .values({
          id: 'u-before',
          username: 'doctor-before',
          display_name: 'Doctor Before',
          role: 'doctor',
          password_hash: 'x',
          disabled: true,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await db
        .insertInto('patient_records')
        .values({
          id: 'r-before',
          number: 'B-1',
          number_key: 'b-1',
          name: null,
          birth_date: null,
          gender: null,
          version: 1,
          created_at: at,
          updated_at: at,
          created_by: null,
          deleted_at: at,
          deleted_by: null,
        })
        .execute();
      const before = {
        users: (await db.selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id),
        records: await db.selectFrom('patient_records').selectAll().orderBy('id').execute(),
        assessments: await db
          .selectFrom('assessments')
          .select(['id', 'version', 'patient_record_id', 'risk_rank', 'search_text'])
          .orderBy('id')
          .execute(),
      };
      expect(before.users).toHaveLength(3);
      expect(before.records).toHaveLength(3);
      expect(before.assessments).toHaveLength(3);

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(orgUnits)).map((migration) => migration.name),
      );

      const units = await db.selectFrom('org_units').selectAll().execute();
      expect(units).toEqual([
        expect.objectContaining({
          code: 'MAIN',
          code_key: 'main',
          name: 'Main clinic',
          parent_id: null,
          version: 1,
          closed_at: null,
        }),
      ]);
      const main = units[0]?.id ?? '';
      expect(
        (await db.selectFrom('user_units').selectAll().orderBy('user_id').execute()).map((row) => [
          row.user_id,
          row.org_unit_id,
        ]),
      ).toEqual(before.users.map((id) => [id, main]));
      // The rows are as they were, each in MAIN.
      expect(await db.selectFrom('patient_records').selectAll().orderBy('id').execute()).toEqual(
        before.records.map((row) => ({ ...row, org_unit_id: main })),
      );
      expect(
        await db
          .selectFrom('assessments')
          .select(['id', 'version', 'patient_record_id', 'risk_rank', 'search_text', 'org_unit_id'])
          .orderBy('id')
          .execute(),
      ).toEqual(before.assessments.map((row) => ({ ...row, org_unit_id: main })));

      // A user's page names their unit; saves go on, in MAIN.
      const users = await call(admin, 'GET', '/api/users');
      expect(users.statusCode, users.body).toBe(200);
      for (const user of users.json<{ items: User[] }>().items) {
        expect(user.units).toEqual([{ id: main, code: 'MAIN', name: 'Main clinic' }]);
      }
      const later = await call(nurse, 'POST', '/api/assessments', {
        ...lowRiskBody,
        patientId: one.id,
      });
      expect(later.statusCode, later.body).toBe(201);
      const newPatient = await call(nurse, 'POST', '/api/assessments', {
        ...lowRiskBody,
        newPatient: { number: 'U-3' },
      });
      expect(newPatient.statusCode, newPatient.body).toBe(201);
      const placed = await db
        .selectFrom('assessments')
        .select('org_unit_id')
        .where('id', 'in', [later.json<Assessment>().id, newPatient.json<Assessment>().id])
        .execute();
      expect(placed).toEqual([{ org_unit_id: main }, { org_unit_id: main }]);
      expect(
        await db
          .selectFrom('patient_records')
          .select('org_unit_id')
          .where('number', '=', 'U-3')
          .execute(),
      ).toEqual([{ org_unit_id: main }]);
      expect(saved).toHaveLength(3);

      // A unit that does not exist is refused on both engines.
      await expect(
        sql`update assessments set org_unit_id = 'nowhere' where id = ${saved[0]}`.execute(db),
      ).rejects.toThrow();
      await expect(
        sql`update patient_records set org_unit_id = 'nowhere' where id = ${one.id}`.execute(db),
      ).rejects.toThrow();
      await expect(
        db
          .insertInto('user_units')
          .values({ user_id: 'u-before', org_unit_id: 'nowhere' })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await t.close();
    }
  });
});
