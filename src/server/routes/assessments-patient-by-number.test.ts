import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAssessmentCode } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { ErrorEnvelope } from '../../shared/api/errors.ts';
import type { Patient } from '../../shared/api/patients.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { atVersion, requestsAs, type Requests } from '../testing/requests.ts';
import { signedInAs } from '../testing/users.ts';

/** An assessment of a 58-year-old of the given gender, as a device saves it offline. */
const visit = (gender: 'Male' | 'Female' | undefined, extra: object = {}) => ({
  demographics: { age: 58, height: 170, weight: 80, ...(gender === undefined ? {} : { gender }) },
  riskFactors: { smoking: true },
  ...extra,
});

let codeCounter = 0;
function freshCode(): string {
  codeCounter += 1;
  return generateAssessmentCode(
    Date.UTC(2026, 10, 28, 2, 0, codeCounter),
    () => codeCounter / 1000,
  );
}

describe.each(testDatabases())('an assessment naming its patient by number on $engine', (db) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let call: Requests;

  beforeAll(async () => {
    t = await openTestApp(db);
    nurse = await signedInAs(t, 'nurse', 'nurse-nyah', 'Nyah Nurse');
    call = requestsAs(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const createPatient = async (body: object) => {
    const response = await call(nurse, 'POST', '/api/patients', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Patient>();
  };
  const recordsNumbered = (number: string) =>
    t.database.db
      .selectFrom('patient_records')
      .select(['id', 'gender'])
      .where('number_key', '=', number.toLowerCase())
      .execute();
  const assessmentsCoded = (code: string) =>
    t.database.db
      .selectFrom('assessments')
      .select(['id', 'patient_record_id'])
      .where('assessment_code', '=', code)
      .execute();

  it('links the live record with the number when the gender agrees, in any case of the number', async () => {
    const patient = await createPatient({
      number: 'BYN-1',
      name: 'Lindiwe Link',
      gender: 'Female',
    });
    const code = freshCode();
    const response = await call(nurse, 'POST', '/api/assessments', {
      ...visit('Female'),
      code,
      patientByNumber: { number: 'byn-1', name: 'Another Name' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const assessment = response.json<Assessment>();
    // The live record wins: the name the device sent does not replace it or make a second record.
    expect(assessment.patient).toEqual({ id: patient.id, number: 'BYN-1', name: 'Lindiwe Link' });
    expect(await recordsNumbered('BYN-1')).toHaveLength(1);
    expect(await assessmentsCoded(code)).toEqual([
      { id: assessment.id, patient_record_id: patient.id },
    ]);
  });

  it('links a record whose gender is not known, and an assessment without one', async () => {
    const unknownGender = await createPatient({ number: 'BYN-2' });
    const first = await call(nurse, 'POST', '/api/assessments', {
      ...visit('Male'),
      patientByNumber: { number: 'BYN-2' },
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<Assessment>().patient?.id).toBe(unknownGender.id);

    const known = await createPatient({ number: 'BYN-3', gender: 'Male' });
    const second = await call(nurse, 'POST', '/api/assessments', {
      ...visit(undefined),
      patientByNumber: { number: 'BYN-3' },
    });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json<Assessment>().patient?.id).toBe(known.id);
  });

  it('refuses another gender with a 409 naming the record and stores nothing, until told to link anyway', async () => {
    const patient = await createPatient({ number: 'BYN-4', gender: 'Male' });
    const code = freshCode();
    const body = { ...visit('Female'), code, patientByNumber: { number: 'BYN-4' } };
    const refused = await call(nurse, 'POST', '/api/assessments', body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorEnvelope>().error).toEqual({
      code: 'patient_gender_differs',
      message:
        'The patient record with this number has another gender. Link the assessment to it anyway, or change the patient number.',
      field: 'patientByNumber.number',
      existingId: patient.id,
    });
    expect(await assessmentsCoded(code)).toEqual([]);

    const linked = await call(nurse, 'POST', '/api/assessments', {
      ...body,
      patientByNumber: { number: 'BYN-4', linkWhateverGender: true },
    });
    expect(linked.statusCode, linked.body).toBe(201);
    expect(linked.json<Assessment>().patient?.id).toBe(patient.id);
    expect(await assessmentsCoded(code)).toHaveLength(1);
    // The record keeps its own gender.
    expect(await recordsNumbered('BYN-4')).toEqual([{ id: patient.id, gender: 'Male' }]);
  });

  it('makes the record when no live one has the number, with the details and the gender sent', async () => {
    const deleted = await createPatient({ number: 'BYN-5', gender: 'Male' });
    const removed = await call(
      await signedInAs(t, 'admin', 'admin-abe', 'Abe Admin'),
      'DELETE',
      `/api/patients/${deleted.id}`,
      undefined,
      atVersion(deleted.version),
    );
    expect(removed.statusCode, removed.body).toBe(204);
    const response = await call(nurse, 'POST', '/api/assessments', {
      ...visit('Female'),
      patientByNumber: { number: 'BYN-5', name: 'Nomsa New', birthDate: '1968-02-03' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const made = response.json<Assessment>().patient;
    expect(made).toMatchObject({ number: 'BYN-5', name: 'Nomsa New' });
    expect(made?.id).not.toBe(deleted.id);
    const record = (await call(nurse, 'GET', `/api/patients/${made?.id ?? ''}`)).json<Patient>();
    expect(record).toMatchObject({ gender: 'Female', birthDate: '1968-02-03' });
  });

  it('decides the same way on an update, and a repeated save of the same code stores it once', async () => {
    const patient = await createPatient({ number: 'BYN-6', gender: 'Female' });
    const code = freshCode();
    const body = { ...visit('Female'), code, patientByNumber: { number: 'BYN-6' } };
    const first = await call(nurse, 'POST', '/api/assessments', body);
    expect(first.statusCode, first.body).toBe(201);
    const again = await call(nurse, 'POST', '/api/assessments', body);
    expect(again.statusCode, again.body).toBe(200);
    expect(await assessmentsCoded(code)).toHaveLength(1);

    const created = first.json<Assessment>();
    const other = await createPatient({ number: 'BYN-7', gender: 'Male' });
    const update = (patientByNumber: object) =>
      call(
        nurse,
        'PUT',
        `/api/assessments/${created.id}`,
        { ...visit('Female'), patientByNumber },
        atVersion(created.version),
      );
    const refused = await update({ number: 'BYN-7' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorEnvelope>().error.code).toBe('patient_gender_differs');
    const kept = (await call(nurse, 'GET', `/api/assessments/${created.id}`)).json<Assessment>()
      .patient;
    expect(kept?.id).toBe(patient.id);
    const linked = await update({ number: 'BYN-7', linkWhateverGender: true });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json<Assessment>().patient?.id).toBe(other.id);
  });

  it('refuses a body naming the patient two ways', async () => {
    const patient = await createPatient({ number: 'BYN-8' });
    for (const extra of [{ patientId: patient.id }, { newPatient: { number: 'BYN-9' } }]) {
      const response = await call(nurse, 'POST', '/api/assessments', {
        ...visit('Male'),
        patientByNumber: { number: 'BYN-8' },
        ...extra,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorEnvelope>().error.field).toBe('patientByNumber');
    }
    expect(await recordsNumbered('BYN-9')).toEqual([]);
  });

  it('links both of two saves racing to make the same number to one record', async () => {
    const bodies = [0, 1].map(() => ({
      ...visit('Male'),
      code: freshCode(),
      patientByNumber: { number: 'BYN-RACE' },
    }));
    const answers = await Promise.all(
      bodies.map((body) => call(nurse, 'POST', '/api/assessments', body)),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    const records = await recordsNumbered('BYN-RACE');
    expect(records).toHaveLength(1);
    for (const answer of answers) {
      expect(answer.json<Assessment>().patient?.id).toBe(records[0]?.id);
    }
  });
});
