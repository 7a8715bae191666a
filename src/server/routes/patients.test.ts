import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment, AssessmentList } from '../../shared/api/assessments.ts';
import type { Patient, PatientAssessmentList, PatientList } from '../../shared/api/patients.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

/** A 62-year-old woman, thirsty and tired, with a family history of diabetes. */
const visit = (weight: number, extra: object = {}) => ({
  demographics: { age: 62, gender: 'Female', height: 160, weight },
  riskFactors: { smoking: false, familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
  ...extra,
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe.each(testDatabases())('patient records on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string; userId: string };
  let doctor: { cookie: string };
  let admin: { cookie: string };

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    nurse = await signedInAs(t, 'nurse', 'nurse-nia', 'Nia Nurse');
    doctor = await signedInAs(t, 'doctor', 'doctor-dee', 'Dee Doctor');
    admin = await signedInAs(t, 'admin', 'admin-ada', 'Ada Admin');
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (
    who: { cookie: string } | null,
    method: Method,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...(who === null ? {} : { cookie: who.cookie }), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const createPatient = async (body: object, who = nurse) => {
    const response = await call(who, 'POST', '/api/patients', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Patient>();
  };
  const createAssessment = async (body: object, who: { cookie: string } = nurse) => {
    const response = await call(who, 'POST', '/api/assessments', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Assessment>();
  };
  const auditRows = (action: string) =>
    t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  it('creates a patient record with a version, and refuses its number again in any case', async () => {
    const response = await call(nurse, 'POST', '/api/patients', {
      number: 'MRN-0001',
      name: 'Amina Okafor',
      birthDate: '1964-03-02',
      gender: 'Female',
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers.etag).toBe('"1"');
    const patient = response.json<Patient>();
    expect(patient).toMatchObject({
      number: 'MRN-0001',
      name: 'Amina Okafor',
      birthDate: '1964-03-02',
      age: 62,
      gender: 'Female',
      version: 1,
      deletedAt: null,
      lastHeight: null,
    });

    const again = await call(doctor, 'POST', '/api/patients', { number: 'mrn-0001' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: {
        code: 'conflict',
        message: expect.any(String) as string,
        field: 'number',
        existingId: patient.id,
      },
    });
    expect((await auditRows('patient_create')).map((row) => row.target_id)).toEqual([patient.id]);
  });

  it('refuses a malformed number, a future date of birth and one over 120 years back', async () => {
    for (const [body, field] of [
      [{ number: '' }, 'number'],
      [{ number: 'A'.repeat(33) }, 'number'],
      [{ number: 'MRN 12' }, 'number'],
      [{ number: 'MRN_12' }, 'number'],
      [{ number: 'MRN-13', birthDate: '2026-11-23' }, 'birthDate'],
      [{ number: 'MRN-14', birthDate: '1906-11-21' }, 'birthDate'],
      [{ number: 'MRN-15', birthDate: '1990-02-30' }, 'birthDate'],
      [{ number: 'MRN-16', gender: 'Other' }, 'gender'],
    ] as const) {
      const response = await call(nurse, 'POST', '/api/patients', body);
      expect({ body, status: response.statusCode }).toEqual({ body, status: 400 });
      expect(response.json<{ error: { field: string } }>().error.field).toBe(field);
    }
    // The clock reads 2026-11-22: today and exactly 120 years back are both possible.
    await createPatient({ number: 'MRN-17', birthDate: '2026-11-22' });
    await createPatient({ number: 'MRN-18/b', birthDate: '1906-11-22' });
  });

  it('reads a patient with its ETag and audits the opening', async () => {
    const patient = await createPatient({ number: 'P-READ', name: 'Ruth Read' });
    const response = await call(doctor, 'GET', `/api/patients/${patient.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"1"');
    expect(response.json()).toEqual(patient);
    const views = (await auditRows('patient_view')).filter((row) => row.target_id === patient.id);
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ target_type: 'patient', outcome: 'success' });
    expect((await call(nurse, 'GET', '/api/patients/no-such-id')).statusCode).toBe(404);
  });

  it('finds patients by the start of their number or of a word of their name, without case', async () => {
    await createPatient({ number: 'SRCH-100', name: 'Grace Mwangi' });
    await createPatient({ number: 'SRCH-200', name: 'Mwangi Otieno' });
    await createPatient({ number: 'SRCH-300', name: 'Omwangi Kariuki' });
    const search = async (q: string, extra = '') => {
      const response = await call(nurse, 'GET', `/api/patients?q=${encodeURIComponent(q)}${extra}`);
      expect(response.statusCode).toBe(200);
      return response.json<PatientList>();
    };
    const numbers = (list: PatientList) => list.items.map((item) => item.number);
    expect(numbers(await search('mwangi'))).toEqual(['SRCH-100', 'SRCH-200']);
    expect(numbers(await search('MWAN'))).toEqual(['SRCH-100', 'SRCH-200']);
    expect(numbers(await search('grace mw'))).toEqual(['SRCH-100']);
    expect(numbers(await search('srch-2'))).toEqual(['SRCH-200']);
    expect(numbers(await search('wangi'))).toEqual([]);

    const first = await search('srch', '&limit=2');
    expect(first.total).toBe(3);
    expect(numbers(first)).toEqual(['SRCH-100', 'SRCH-200']);
    expect(first.nextCursor).not.toBeNull();
    const second = await search('srch', `&limit=2&cursor=${first.nextCursor ?? ''}`);
    expect(numbers(second)).toEqual(['SRCH-300']);
    expect(second.nextCursor).toBeNull();
    expect((await call(nurse, 'GET', '/api/patients?cursor=nonsense')).statusCode).toBe(400);

    // A record with two words that start alike is found once; a word every record has may come
    // first or last.
    await createPatient({ number: 'SRCH-400', name: 'Thandi Thabo Zungu' });
    const alike = await search('tha');
    expect(numbers(alike)).toEqual(['SRCH-400']);
    expect(alike.total).toBe(1);
    expect(numbers(await search('srch tha'))).toEqual(['SRCH-400']);
    expect(numbers(await search('zungu SRCH-4'))).toEqual(['SRCH-400']);
    expect((await search('srch', '&limit=3')).total).toBe(4);

    // Each search is audited, and never with what was searched for.
    const searches = await auditRows('patient_search');
    expect(searches.length).toBeGreaterThanOrEqual(7);
    expect(JSON.stringify(searches).toLowerCase()).not.toContain('mwangi');

    // The first key typed alone matches whole words (it starts a word of nearly every record);
    // beside a longer word, a one-character word matches starts again.
    await createPatient({ number: 'INIT-7', name: 'Jabu M Dube' });
    expect(numbers(await search('m'))).toEqual(['INIT-7']);
    expect(numbers(await search('M J'))).toEqual([]);
    expect(numbers(await search('m jabu'))).toEqual(['INIT-7']);
    expect(numbers(await search('7'))).toEqual(['INIT-7']);
    expect(numbers(await search('s'))).toEqual([]);
    expect(numbers(await search('init-7'))).toEqual(['INIT-7']);
    expect(numbers(await search('dube j'))).toEqual(['INIT-7']);
  });

  it('changes a patient only at the version the user saw', async () => {
    const patient = await createPatient({ number: 'P-EDIT', name: 'Ed Ito' });
    await createPatient({ number: 'P-TAKEN' });
    const url = `/api/patients/${patient.id}`;
    expect((await call(nurse, 'PUT', url, { number: 'P-EDIT', name: 'Edna Ito' })).statusCode).toBe(
      428,
    );
    const changed = await call(
      nurse,
      'PUT',
      url,
      { number: 'P-EDIT', name: 'Edna Ito' },
      {
        'if-match': '"1"',
      },
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).toBe('"2"');
    expect(changed.json<Patient>()).toMatchObject({ name: 'Edna Ito', version: 2 });
    const stale = await call(
      doctor,
      'PUT',
      url,
      { number: 'P-EDIT', name: 'Other' },
      {
        'if-match': '"1"',
      },
    );
    expect(stale.statusCode).toBe(412);
    const taken = await call(nurse, 'PUT', url, { number: 'p-taken' }, { 'if-match': '"2"' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<{ error: { field: string } }>().error.field).toBe('number');
    // The new name is found, the old one no longer.
    const found = await call(nurse, 'GET', '/api/patients?q=edna');
    expect(found.json<PatientList>().items.map((item) => item.id)).toEqual([patient.id]);
    expect((await call(nurse, 'GET', '/api/patients?q=ed')).json<PatientList>().total).toBe(1);
    expect((await auditRows('patient_update')).map((row) => row.target_id)).toEqual([patient.id]);
  });

  it('lets only an admin delete and restore a patient, softly', async () => {
    const patient = await createPatient({ number: 'P-GONE', name: 'Gone Away' });
    const url = `/api/patients/${patient.id}`;
    expect((await call(nurse, 'DELETE', url)).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', url, undefined, { 'if-match': '"7"' })).statusCode).toBe(
      412,
    );
    expect((await call(admin, 'DELETE', url)).statusCode).toBe(204);
    expect((await call(nurse, 'GET', url)).statusCode).toBe(404);
    const asAdmin = await call(admin, 'GET', url);
    expect(asAdmin.json<Patient>().deletedAt).not.toBeNull();
    const found = async (q: string) =>
      (await call(nurse, 'GET', `/api/patients?q=${encodeURIComponent(q)}`)).json<PatientList>();
    expect((await found('p-gone')).total).toBe(0);
    expect((await found('gone away')).items).toEqual([]);

    // The number is free for someone else while the record is deleted; restoring it then clashes.
    const other = await createPatient({ number: 'P-GONE' });
    const clash = await call(admin, 'POST', `${url}/restore`);
    expect(clash.statusCode).toBe(409);
    expect(clash.json<{ error: { existingId: string } }>().error.existingId).toBe(other.id);
    await call(admin, 'DELETE', `/api/patients/${other.id}`);
    expect((await call(nurse, 'POST', `${url}/restore`)).statusCode).toBe(403);
    const restored = await call(admin, 'POST', `${url}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json<Patient>().deletedAt).toBeNull();
    expect((await call(nurse, 'GET', url)).statusCode).toBe(200);
    expect((await found('gone away')).items.map((item) => item.id)).toEqual([patient.id]);
    expect((await found('p-gone')).items.map((item) => item.id)).toEqual([patient.id]);
    const rows = await t.database.db
      .selectFrom('patient_records')
      .select('id')
      .where('number_key', '=', 'p-gone')
      .execute();
    expect(rows).toHaveLength(2);
  });

  it('answers 401 to anyone not signed in', async () => {
    const patient = await createPatient({ number: 'P-ANON' });
    for (const [method, url] of [
      ['GET', '/api/patients'],
      ['POST', '/api/patients'],
      ['GET', `/api/patients/${patient.id}`],
      ['PUT', `/api/patients/${patient.id}`],
      ['DELETE', `/api/patients/${patient.id}`],
      ['POST', `/api/patients/${patient.id}/restore`],
      ['GET', `/api/patients/${patient.id}/assessments`],
    ] as const) {
      expect((await call(null, method, url, method === 'GET' ? undefined : {})).statusCode).toBe(
        401,
      );
    }
  });

  it('links assessments to a patient and shows what changed since the last one', async () => {
    const patient = await createPatient({ number: 'P-VISITS', name: 'Vera Visits' });
    const first = await createAssessment({ ...visit(70), patientId: patient.id });
    expect(first.patient).toEqual({ id: patient.id, number: 'P-VISITS', name: 'Vera Visits' });
    expect(first.previousAssessment).toBeNull();

    t.advance(20 * 60_000);
    const second = await createAssessment(
      { ...visit(84), patientId: patient.id, riskFactors: { smoking: true } },
      doctor,
    );
    expect(second.previousAssessment).toMatchObject({
      id: first.id,
      code: first.code,
      createdAt: first.createdAt,
      totalScore: first.totalScore,
      bmi: first.demographics.bmi,
      signedOff: false,
      reviewLocked: false,
      ruleSetVersion: '2.0',
    });
    expect(second.previousAssessment?.results.map((r) => r.condition)).toEqual(
      first.results.conditions.map((c) => c.condition),
    );
    expect(second.previousAssessment?.results).toEqual(
      first.results.conditions.map((c) => ({
        condition: c.condition,
        riskStatus: c.riskStatus,
        totalScore: c.totalScore,
      })),
    );

    const timeline = await call(nurse, 'GET', `/api/patients/${patient.id}/assessments`);
    expect(timeline.statusCode).toBe(200);
    const items = timeline.json<PatientAssessmentList>().items;
    expect(items.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(items[0]?.bmi).toBeCloseTo(84 / 1.6 ** 2, 10);
    expect(items.map((item) => item.reviewLocked)).toEqual([false, false]);

    // A locked review shows on its assessment, and only there.
    const lock = await call(doctor, 'POST', `/api/assessments/${first.id}/review/lock`, {});
    expect(lock.statusCode, lock.body).toBe(200);
    const afterLock = await call(nurse, 'GET', `/api/patients/${patient.id}/assessments`);
    expect(
      afterLock.json<PatientAssessmentList>().items.map((item) => [item.id, item.reviewLocked]),
    ).toEqual([
      [second.id, false],
      [first.id, true],
    ]);

    const read = await call(nurse, 'GET', `/api/patients/${patient.id}`);
    expect(read.json<Patient>().lastHeight).toBe(160);

    // The history shows the number and links the record; an update that does not mention the
    // patient keeps the link.
    const history = await call(nurse, 'GET', '/api/assessments?limit=200');
    const row = history.json<AssessmentList>().items.find((item) => item.id === second.id);
    expect(row?.patientNumber).toBe('P-VISITS');
    expect(row?.patientId).toBe(patient.id);
    const kept = await call(nurse, 'PUT', `/api/assessments/${first.id}`, visit(71), {
      'if-match': '"1"',
    });
    expect(kept.json<Assessment>().patient?.id).toBe(patient.id);
    const unlinked = await call(
      nurse,
      'PUT',
      `/api/assessments/${first.id}`,
      {
        ...visit(71),
        patientId: null,
      },
      { 'if-match': '"2"' },
    );
    expect(unlinked.json<Assessment>().patient).toBeNull();
    const afterUnlink = await call(nurse, 'GET', `/api/assessments/${second.id}`);
    expect(afterUnlink.json<Assessment>().previousAssessment).toBeNull();
  });

  it('compares an assessment with the live one made just before it', async () => {
    const patient = await createPatient({ number: 'P-ORDER' });
    const first = await createAssessment({ ...visit(60), patientId: patient.id });
    t.advance(60_000);
    const second = await createAssessment({ ...visit(62), patientId: patient.id });
    // Made in the same millisecond as the second: the two are ordered by id.
    const third = await createAssessment({ ...visit(64), patientId: patient.id });
    expect(third.createdAt).toBe(second.createdAt);
    const [earlier, later] = [second, third].sort((a, b) => (a.id < b.id ? -1 : 1));
    t.advance(60_000);
    const fourth = await createAssessment({ ...visit(66), patientId: patient.id });
    const previousOf = async (id: string) =>
      (await call(nurse, 'GET', `/api/assessments/${id}`)).json<Assessment>().previousAssessment;

    expect((await previousOf(later!.id))?.id).toBe(earlier!.id);
    expect((await previousOf(earlier!.id))?.id).toBe(first.id);
    expect(await previousOf(first.id)).toBeNull();
    expect(fourth.previousAssessment).toMatchObject({
      id: later!.id,
      bmi: later!.demographics.bmi,
    });
    expect(fourth.previousAssessment?.results).toHaveLength(6);

    // A deleted assessment is passed over, and counts again once restored.
    const remove = await call(admin, 'DELETE', `/api/assessments/${later!.id}`, undefined, {
      'if-match': `"${later!.version}"`,
    });
    expect(remove.statusCode, remove.body).toBe(204);
    expect((await previousOf(fourth.id))?.id).toBe(earlier!.id);
    const restore = await call(admin, 'POST', `/api/assessments/${later!.id}/restore`, {});
    expect(restore.statusCode, restore.body).toBe(200);
    expect((await previousOf(fourth.id))?.id).toBe(later!.id);
  });

  it('creates a new patient with the assessment that first names them, in one transaction', async () => {
    const assessment = await createAssessment({
      ...visit(66),
      newPatient: { number: 'P-NEW-1', name: 'Nadia New', birthDate: '1970-05-05' },
    });
    expect(assessment.patient).toMatchObject({ number: 'P-NEW-1', name: 'Nadia New' });
    const patient = (
      await call(nurse, 'GET', `/api/patients/${assessment.patient?.id ?? ''}`)
    ).json<Patient>();
    expect(patient).toMatchObject({ gender: 'Female', birthDate: '1970-05-05', lastHeight: 160 });

    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('assessments')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const taken = await call(nurse, 'POST', '/api/assessments', {
      ...visit(66),
      newPatient: { number: 'p-new-1' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<{ error: { field: string } }>().error.field).toBe('newPatient.number');
    const both = await call(nurse, 'POST', '/api/assessments', {
      ...visit(66),
      patientId: patient.id,
      newPatient: { number: 'P-NEW-2' },
    });
    expect(both.statusCode).toBe(400);
    const unknown = await call(nurse, 'POST', '/api/assessments', {
      ...visit(66),
      patientId: 'no-such-patient',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ error: { field: string } }>().error.field).toBe('patientId');
    const future = await call(nurse, 'POST', '/api/assessments', {
      ...visit(66),
      newPatient: { number: 'P-NEW-3', birthDate: '2030-01-01' },
    });
    expect(future.statusCode).toBe(400);
    expect(future.json<{ error: { field: string } }>().error.field).toBe('newPatient.birthDate');
    expect(await count()).toBe(before);
    const records = await t.database.db
      .selectFrom('patient_records')
      .select('number')
      .where('number', 'in', ['P-NEW-2', 'P-NEW-3'])
      .execute();
    expect(records).toEqual([]);
  });

  it('answers a save with the assessment exactly as a read of it shows it', async () => {
    const patient = await createPatient({ number: 'P-ANSWER', name: 'Ada Answer' });
    const full = {
      riskFactors: { smoking: true, familyHistory: { DM2: true, Asthma: false } },
      symptoms: {
        DM2: { thirst: { present: true, severity: 'severe' }, fatigue: { present: false } },
        TB: {
          coughOver14Days: { present: true },
          nightSweats: { present: true, severity: 'mild' },
        },
      },
      management: {
        Hypertension: {
          diagnosed: true,
          lastDoctorVisit: 'never',
          prescriptionDuration: '<4months',
        },
        Asthma: { diagnosed: false },
      },
      notes: 'Seen at the morning clinic',
    };
    const bodies = [
      { ...visit(70, full), patientId: patient.id },
      // The patient's second: the answer carries the first to compare with.
      { ...visit(73), patientId: patient.id },
      { ...visit(75), newPatient: { number: 'P-ANSWER-NEW', name: 'Nel New' } },
      visit(77, { demographics: { age: 40 } }),
    ];
    for (const body of bodies) {
      t.advance(60_000);
      const created = await createAssessment(body);
      const read = await call(doctor, 'GET', `/api/assessments/${created.id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(created);
    }
  });

  it('keeps the anonymous assessment as it was: no patient, nothing to compare', async () => {
    const assessment = await createAssessment(visit(75));
    expect(assessment.patient).toBeNull();
    expect(assessment.previousAssessment).toBeNull();
    const history = await call(nurse, 'GET', '/api/assessments?limit=200');
    const row = history.json<AssessmentList>().items.find((item) => item.id === assessment.id);
    expect(row?.patientNumber).toBeNull();
    expect(row?.patientId).toBeNull();
  });
});
