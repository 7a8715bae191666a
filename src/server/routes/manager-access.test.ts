import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { Patient } from '../../shared/api/patients.ts';
import type { User } from '../../shared/api/users.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { atVersion, requestsAs, type Method, type Requests } from '../testing/requests.ts';
import { highRiskBody } from '../testing/risk-bodies.ts';
import { signedInAs, testPassword } from '../testing/users.ts';

/**
 * The role `manager` (decisions.md section 1): reads what a doctor reads, and the audit trail;
 * creates, changes, signs off, reviews and deletes nothing.
 */
describe.each(testDatabases())('a manager on $engine', (testDatabase) => {
  let t: TestApp;
  let call: Requests;
  let manager: { cookie: string };
  let assessment: Assessment;
  let patient: Patient;

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    call = requestsAs(t);
    const nurse = await signedInAs(t, 'nurse');
    const doctor = await signedInAs(t, 'doctor');
    manager = await signedInAs(t, 'manager');
    patient = (
      await call(nurse, 'POST', '/api/patients', { number: 'M-1', name: 'Thandi' })
    ).json();
    const saved = await call(nurse, 'POST', '/api/assessments', {
      ...highRiskBody,
      patientId: patient.id,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const signed = await call(
      nurse,
      'POST',
      `/api/assessments/${saved.json<Assessment>().id}/sign-off`,
      undefined,
      atVersion(1),
    );
    expect(signed.statusCode, signed.body).toBe(200);
    assessment = signed.json<Assessment>();
    // A doctor's review, which the manager may read.
    const review = await call(doctor, 'PUT', `/api/assessments/${assessment.id}/review`, {
      conditions: {},
    });
    expect([200, 400]).toContain(review.statusCode);
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads what a doctor reads, and the audit trail', async () => {
    const mainUnitId = (await orgUnitsRepository.findMain(t.database.db))?.id ?? '';
    const reads = [
      '/api/assessments',
      `/api/assessments/${assessment.id}`,
      `/api/assessments/${assessment.id}/report`,
      `/api/assessments/${assessment.id}/report.txt`,
      `/api/assessments/${assessment.id}/fhir`,
      `/api/assessments/${assessment.id}/review`,
      '/api/assessments/population',
      '/api/patients?q=M-1',
      `/api/patients/${patient.id}`,
      `/api/patients/${patient.id}/assessments`,
      '/api/worklists/review',
      '/api/worklists/follow-up',
      '/api/reviews/agreement',
      '/api/reviews/agreement.csv',
      '/api/exports/assessments.csv',
      '/api/exports/assessments.txt',
      '/api/exports/fhir.ndjson',
      '/api/audit',
      '/api/rule-sets',
      '/api/org-units',
      `/api/org-units/${mainUnitId}/summary`,
    ];
    for (const url of reads) {
      const response = await call(manager, 'GET', url);
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('creates, changes, signs off, reviews and deletes nothing', async () => {
    const id = assessment.id;
    const changes: [Method, string, object?][] = [
      ['POST', '/api/assessments', highRiskBody],
      ['PUT', `/api/assessments/${id}`, highRiskBody],
      ['POST', `/api/assessments/${id}/sign-off`],
      ['DELETE', `/api/assessments/${id}`],
      ['POST', `/api/assessments/${id}/restore`],
      ['PUT', `/api/assessments/${id}/review`, { conditions: {} }],
      ['POST', `/api/assessments/${id}/review/lock`],
      ['POST', '/api/patients', { number: 'M-2' }],
      ['PUT', `/api/patients/${patient.id}`, { number: 'M-1', name: 'Changed' }],
      ['DELETE', `/api/patients/${patient.id}`],
      ['POST', '/api/users', { username: 'by-manager', role: 'nurse', password: testPassword }],
      ['PUT', '/api/rule-sets/active', { version: '2.0' }],
      ['POST', '/api/org-units', { code: 'X', name: 'X', parentId: null }],
    ];
    for (const [method, url, body] of changes) {
      const response = await call(manager, method, url, body, atVersion(2));
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
    }
    const read = await call(manager, 'GET', `/api/assessments/${id}`);
    expect(read.json<Assessment>()).toMatchObject({ version: assessment.version });
    expect(
      await t.database.db
        .selectFrom('patient_records')
        .select('number')
        .orderBy('number')
        .execute(),
    ).toEqual([{ number: 'M-1' }]);
  });

  it('is a role an administrator can give, stored as such', async () => {
    const admin = await signedInAs(t, 'admin');
    const made = await call(admin, 'POST', '/api/users', {
      username: 'district-manager',
      role: 'manager',
      password: testPassword,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json<User>()).toMatchObject({ role: 'manager' });
    // The database itself refuses a role it does not know.
    await expect(
      t.database.db
        .updateTable('users')
        .set({ role: 'boss' as 'manager' })
        .where('username', '=', 'district-manager')
        .execute(),
    ).rejects.toThrow();
  });
});
