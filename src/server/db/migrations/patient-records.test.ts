import { describe, expect, it } from 'vitest';
import type { Assessment, AssessmentList } from '../../../shared/api/assessments.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { patientRecords } from './20261125T0100-patient-records.ts';

const at = '2026-11-22T08:00:00.000Z';

describe.each(testDatabases())('the patient-records migration on $engine', ({ engine, open }) => {
  it('keeps every stored assessment valid and naming no patient', async () => {
    const handle = await open();
    await undoThrough(handle, patientRecords.name);
    // An assessment as the version before stored it: its measured demographics and a result.
    await handle.db
      .insertInto('patients')
      .values({
        id: 'p-early',
        age: 58,
        gender: 'Male',
        height: 170,
        weight: 80,
        bmi: 27.68,
        updated_at: at,
      })
      .execute();
    await handle.db
      .insertInto('assessments')
      .values({
        id: 'a-early',
        patient_id: 'p-early',
        assessment_code: 'ASS-MIGRATE-AAAA',
        assessment_complete: true,
        total_score: 0,
        notes: 'before patient records',
        created_at: at,
        updated_at: at,
        signed_off: false,
        version: 1,
        search_text: 'a-early ass-migrate-aaaa|2026-11-22',
        patient_gender: 'Male',
        patient_age: 58,
        created_local_date: '2026-11-22',
      })
      .execute();
    await handle.db
      .insertInto('risk_factors')
      .values({ assessment_id: 'a-early', smoking: false })
      .execute();

    expect(await migrateToLatest(handle)).toContain(patientRecords.name);

    const t = await openTestApp({ engine, open: () => Promise.resolve(handle) });
    try {
      const nurse = await signedInAs(t, 'nurse');
      const read = await t.app.inject({
        method: 'GET',
        url: '/api/assessments/a-early',
        headers: { cookie: nurse.cookie },
      });
      expect(read.statusCode, read.body).toBe(200);
      const assessment = read.json<Assessment>();
      expect(assessment).toMatchObject({
        code: 'ASS-MIGRATE-AAAA',
        notes: 'before patient records',
        patient: null,
        previousAssessment: null,
      });
      expect(assessment.demographics).toMatchObject({ age: 58, height: 170, weight: 80 });

      const history = await t.app.inject({
        method: 'GET',
        url: '/api/assessments?q=migrate',
        headers: { cookie: nurse.cookie },
      });
      expect(history.json<AssessmentList>().items.map((i) => [i.id, i.patientNumber])).toEqual([
        ['a-early', null],
      ]);
      const updated = await t.app.inject({
        method: 'PUT',
        url: '/api/assessments/a-early',
        headers: { cookie: nurse.cookie, 'if-match': '"1"' },
        payload: { demographics: { age: 58, gender: 'Male', height: 170, weight: 78 } },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json<Assessment>().patient).toBeNull();
    } finally {
      await t.close();
    }
  });
});
