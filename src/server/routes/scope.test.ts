import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Assessment, AssessmentList } from '../../shared/api/assessments.ts';
import type { AuditEvent } from '../../shared/api/audit.ts';
import type { Patient, PatientList } from '../../shared/api/patients.ts';
import type { FollowUpList, ReviewWorklist } from '../../shared/api/worklists.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { atVersion, requestsAs, type Requests } from '../testing/requests.ts';
import { lowRiskBody } from '../testing/risk-bodies.ts';
import { siblingFacilities, type SiblingFacilities } from '../testing/sibling-facilities.ts';

describe.each(testDatabases())('access by place on $engine', (testDatabase) => {
  let t: TestApp;
  let call: Requests;
  let f: SiblingFacilities;

  beforeEach(async () => {
    t = await openTestApp(testDatabase);
    call = requestsAs(t);
    f = await siblingFacilities(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const historyIds = async (who: { cookie: string }, query = '') => {
    const response = await call(who, 'GET', `/api/assessments${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json<AssessmentList>();
    return { ids: list.items.map((item) => item.id).sort(), total: list.total };
  };

  it('answers a record of the sibling facility 404, as if it did not exist', async () => {
    const { a, b } = f;
    const other = b.assessment.id;
    for (const [method, url, body, headers] of [
      ['GET', `/api/assessments/${other}`],
      ['GET', `/api/assessments/${other}/review`],
      ['GET', `/api/assessments/${other}/report`],
      ['GET', `/api/assessments/${other}/report.txt`],
      ['GET', `/api/assessments/${other}/fhir`],
      ['PUT', `/api/assessments/${other}`, lowRiskBody, atVersion(b.assessment.version)],
      ['DELETE', `/api/assessments/${other}`, undefined, atVersion(b.assessment.version)],
      ['GET', `/api/patients/${b.patient.id}`],
      ['GET', `/api/patients/${b.patient.id}/assessments`],
      ['PUT', `/api/patients/${b.patient.id}`, { number: 'X-1' }, atVersion(1)],
    ] as const) {
      const response = await call(a.doctor, method, url, body, headers);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(404);
    }
    const review = await call(a.doctor, 'PUT', `/api/assessments/${other}/review`, {
      reviews: [],
    });
    expect(review.statusCode).toBe(404);
    const lock = await call(a.doctor, 'POST', `/api/assessments/${other}/review/lock`, {});
    expect(lock.statusCode).toBe(404);
    // Nothing was changed by the refused requests.
    const own = await call(b.nurse, 'GET', `/api/assessments/${other}`);
    expect(own.json<Assessment>().version).toBe(b.assessment.version);
    // Its own facility's record reads as before.
    expect((await call(a.doctor, 'GET', `/api/assessments/${a.assessment.id}`)).statusCode).toBe(
      200,
    );
  });

  it('lists only what lies within the scope, and ?unit= narrows it', async () => {
    const { a, b, manager, district } = f;
    expect(await historyIds(a.nurse)).toEqual({ ids: [a.assessment.id], total: 1 });
    expect(await historyIds(b.nurse)).toEqual({ ids: [b.assessment.id], total: 1 });
    const both = [a.assessment.id, b.assessment.id].sort();
    expect(await historyIds(manager)).toEqual({ ids: both, total: 2 });
    expect(await historyIds(f.topAdmin)).toEqual({ ids: both, total: 2 });
    expect(await historyIds(manager, `?unit=${b.unit.id}`)).toEqual({
      ids: [b.assessment.id],
      total: 1,
    });
    expect(await historyIds(manager, `?unit=${district.id}`)).toEqual({ ids: both, total: 2 });
    // The sign-off words, counted within the scope (SQLite reads the units' rows for them).
    expect(await historyIds(manager, '?q=signed%20off')).toEqual({ ids: both, total: 2 });
    expect(await historyIds(a.nurse, '?q=signed%20off')).toEqual({
      ids: [a.assessment.id],
      total: 1,
    });
    expect(await historyIds(a.nurse, '?q=not%20signed%20off')).toEqual({ ids: [], total: 0 });
    // A unit outside the scope is unknown.
    const outside = await call(a.nurse, 'GET', `/api/assessments?unit=${b.unit.id}`);
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).toMatchObject({ error: { field: 'unit' } });
    expect((await call(a.nurse, 'GET', '/api/assessments?unit=nothing')).statusCode).toBe(404);

    // Patient search: the same number in both facilities, each nurse finds her own.
    const search = async (who: { cookie: string }) =>
      (await call(who, 'GET', '/api/patients?q=P-100')).json<PatientList>();
    expect((await search(a.nurse)).items.map((p) => p.id)).toEqual([a.patient.id]);
    expect((await search(a.nurse)).total).toBe(1);
    expect((await search(manager)).total).toBe(2);
    const everyone = await call(a.nurse, 'GET', '/api/patients');
    expect(everyone.json<PatientList>().items.map((p) => p.id)).toEqual([a.patient.id]);

    // Worklists: each facility's doctor sees its own signed-off High risk.
    const review = async (who: { cookie: string }) =>
      (await call(who, 'GET', '/api/worklists/review')).json<ReviewWorklist>();
    expect((await review(a.doctor)).items.map((item) => item.assessmentId)).toEqual([
      a.assessment.id,
    ]);
    expect((await review(a.doctor)).total).toBe(1);
    expect((await review(manager)).total).toBe(2);
    const followUp = async (who: { cookie: string }) =>
      (await call(who, 'GET', '/api/worklists/follow-up')).json<FollowUpList>();
    expect((await followUp(b.nurse)).items.map((item) => item.patient.id)).toEqual([b.patient.id]);
    expect((await followUp(b.nurse)).total).toBe(1);
    expect((await followUp(manager)).total).toBe(2);
  });

  it("keeps numbers unique within a unit and a record's unit its own", async () => {
    const { a } = f;
    const again = await call(a.nurse, 'POST', '/api/patients', { number: 'p-100' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { existingId: a.patient.id } });
    // Named by number, the patient is the one of the unit where the assessment is done.
    const byNumber = await call(a.nurse, 'POST', '/api/assessments', {
      ...lowRiskBody,
      patientByNumber: { number: 'P-100' },
    });
    expect(byNumber.statusCode, byNumber.body).toBe(201);
    expect(byNumber.json<Assessment>().patient?.id).toBe(a.patient.id);
    // A patient of the sibling facility cannot be named.
    const other = await call(a.nurse, 'POST', '/api/assessments', {
      ...lowRiskBody,
      patientId: f.b.patient.id,
    });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ error: { field: 'patientId' } });
  });

  it("shows a manager the audit trail of the scope's users only", async () => {
    const { a, b, manager } = f;
    await call(a.nurse, 'GET', `/api/patients/${a.patient.id}`);
    await call(b.nurse, 'GET', `/api/patients/${b.patient.id}`);
    const trail = async (who: { cookie: string }, query = '') => {
      const response = await call(who, 'GET', `/api/audit?limit=200${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ items: AuditEvent[] }>().items;
    };
    const users = (items: AuditEvent[]) => new Set(items.map((item) => item.userId));
    const inDistrict = await trail(manager);
    expect(users(inDistrict).has(a.nurse.userId)).toBe(true);
    expect(users(inDistrict).has(b.nurse.userId)).toBe(true);
    // The top administrator who made the users works at MAIN, above the district.
    expect(users(inDistrict).has(f.topAdmin.userId)).toBe(false);
    const inA = await trail(manager, `&unit=${a.unit.id}`);
    expect(users(inA).has(a.nurse.userId)).toBe(true);
    expect(users(inA).has(b.nurse.userId)).toBe(false);
    expect(users(await trail(f.topAdmin)).has(f.topAdmin.userId)).toBe(true);
  });

  it('lets a manager read within the district and change nothing', async () => {
    const { a, manager } = f;
    expect((await call(manager, 'GET', `/api/assessments/${a.assessment.id}`)).statusCode).toBe(
      200,
    );
    expect((await call(manager, 'GET', `/api/patients/${a.patient.id}`)).json<Patient>().id).toBe(
      a.patient.id,
    );
    const saved = await call(manager, 'POST', '/api/assessments', lowRiskBody);
    expect(saved.statusCode).toBe(403);
  });

  it("lets a district's administrator manage its users and units only", async () => {
    const { a, districtAdmin, topAdmin, district, main } = f;
    const users = await call(districtAdmin, 'GET', '/api/users');
    expect(users.statusCode).toBe(200);
    const ids = users.json<{ items: { id: string }[] }>().items.map((user) => user.id);
    expect(ids).toContain(a.nurse.userId);
    expect(ids).toContain(f.b.doctor.userId);
    expect(ids).not.toContain(topAdmin.userId);
    expect(
      (await call(districtAdmin, 'PATCH', `/api/users/${topAdmin.userId}`, { displayName: 'X' }))
        .statusCode,
    ).toBe(404);
    const renamed = await call(districtAdmin, 'PATCH', `/api/users/${a.nurse.userId}`, {
      displayName: 'Nurse of A',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const atTop = await call(districtAdmin, 'POST', '/api/users', {
      username: 'nurse-at-main',
      role: 'nurse',
      password: 'a long enough password 1',
      units: [main.id],
    });
    expect(atTop.statusCode).toBe(400);
    expect(atTop.json()).toMatchObject({ error: { field: 'units' } });

    const unit = (parentId: string | null, code: string) =>
      call(districtAdmin, 'POST', '/api/org-units', { code, name: code, parentId });
    expect((await unit(null, 'TOP-2')).statusCode).toBe(403);
    expect((await unit(main.id, 'BESIDE')).statusCode).toBe(400);
    expect((await unit(district.id, 'F-C')).statusCode).toBe(201);
    expect((await call(districtAdmin, 'GET', `/api/org-units/${main.id}`)).statusCode).toBe(404);
    expect((await call(districtAdmin, 'POST', `/api/org-units/${main.id}/close`)).statusCode).toBe(
      404,
    );
    const tree = await call(a.nurse, 'GET', '/api/org-units');
    expect(tree.json<{ items: { id: string }[] }>().items.map((u) => u.id)).toEqual([a.unit.id]);
  });

  it('transfers a patient record between units of one scope, audited', async () => {
    const { a, b, districtAdmin, manager } = f;
    const made = await call(a.nurse, 'POST', '/api/patients', { number: 'P-200' });
    const patient = made.json<Patient>();
    const transfer = (who: { cookie: string }, orgUnitId: string, version = patient.version) =>
      call(who, 'POST', `/api/patients/${patient.id}/transfer`, { orgUnitId }, atVersion(version));
    // The nurse of A does not reach B; a manager changes nothing.
    expect((await transfer(a.nurse, b.unit.id)).statusCode).toBe(400);
    expect((await transfer(manager, b.unit.id)).statusCode).toBe(403);
    // The number is taken at B by B's own P-100.
    const takenThere = await call(
      districtAdmin,
      'POST',
      `/api/patients/${a.patient.id}/transfer`,
      { orgUnitId: b.unit.id },
      atVersion(a.patient.version),
    );
    expect(takenThere.statusCode).toBe(409);
    expect((await transfer(districtAdmin, b.unit.id, patient.version + 1)).statusCode).toBe(412);

    const moved = await transfer(districtAdmin, b.unit.id);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Patient>().version).toBe(patient.version + 1);
    expect((await call(a.nurse, 'GET', `/api/patients/${patient.id}`)).statusCode).toBe(404);
    expect((await call(b.nurse, 'GET', `/api/patients/${patient.id}`)).statusCode).toBe(200);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['user_id', 'detail'])
      .where('action', '=', 'patient_transfer')
      .execute();
    expect(audit).toEqual([
      { user_id: districtAdmin.userId, detail: `from ${a.unit.id} to ${b.unit.id}` },
    ]);
  });

  it('registers a patient record an update makes where the assessment was done', async () => {
    const { a, b, districtAdmin } = f;
    const saved = await call(districtAdmin, 'POST', '/api/assessments', {
      ...lowRiskBody,
      orgUnitId: b.unit.id,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const assessment = saved.json<Assessment>();
    const updated = await call(
      districtAdmin,
      'PUT',
      `/api/assessments/${assessment.id}`,
      { ...lowRiskBody, newPatient: { number: 'UPD-1' }, orgUnitId: a.unit.id },
      atVersion(assessment.version),
    );
    expect(updated.statusCode, updated.body).toBe(200);
    const patientId = updated.json<Assessment>().patient?.id ?? '';
    expect((await call(b.nurse, 'GET', `/api/patients/${patientId}`)).statusCode).toBe(200);
    expect((await call(a.nurse, 'GET', `/api/assessments/${assessment.id}`)).statusCode).toBe(404);
  });
});
