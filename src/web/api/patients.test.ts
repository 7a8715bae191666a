import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  patientNumberTakenMessage,
  type Patient,
  type PatientAssessment,
} from '../../shared/api/patients.ts';
import { createPatient, getPatient, patientAssessments, searchPatients } from './patients.ts';
import { answer, failureOf, planFetch } from './planned-fetch.ts';

const patientId = '01937f00-0000-7000-8000-000000000001';

const patient: Patient = {
  id: patientId,
  number: 'MRN-1001',
  name: 'Thandi Mokoena',
  birthDate: '1970-03-14',
  age: 56,
  gender: 'Female',
  version: 1,
  createdAt: '2026-11-22T09:00:00.000Z',
  updatedAt: '2026-11-22T09:00:00.000Z',
  deletedAt: null,
  lastHeight: 165,
};

const earlier: PatientAssessment = {
  id: 'a-1',
  code: 'ASS-MHX3K2QZ-7F2A',
  createdAt: '2026-10-01T08:00:00.000Z',
  totalScore: 4.25,
  bmi: 30.1,
  signedOff: true,
  reviewLocked: false,
  ruleSetVersion: '2.0',
  results: [{ condition: 'DM2', riskStatus: 'TRUE', totalScore: 4.25 }],
};

function requestsOf(fetchMock: ReturnType<typeof planFetch>) {
  return fetchMock.mock.calls.map(([url, init]) => ({ url, method: init?.method }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('searchPatients', () => {
  it('sends the trimmed words with the page size and cursor', async () => {
    const list = { items: [patient], total: 3, nextCursor: 'next' };
    const fetchMock = planFetch(answer(200, list));

    await expect(searchPatients('  mrn-10 ', { limit: 8, cursor: 'c1' })).resolves.toEqual(list);
    expect(requestsOf(fetchMock)).toEqual([
      { url: '/api/patients?q=mrn-10&limit=8&cursor=c1', method: 'GET' },
    ]);
  });

  it('leaves out empty words and unset options', async () => {
    const fetchMock = planFetch(answer(200, { items: [], total: 0, nextCursor: null }));

    await searchPatients('   ');
    expect(requestsOf(fetchMock)).toEqual([{ url: '/api/patients', method: 'GET' }]);
  });

  it('passes the abort signal on', async () => {
    const fetchMock = planFetch(answer(200, { items: [], total: 0, nextCursor: null }));
    const controller = new AbortController();

    await searchPatients('th', { signal: controller.signal });
    expect(fetchMock.mock.calls[0]?.[1]?.signal).toBe(controller.signal);
  });
});

describe('getPatient', () => {
  it('reads one record by its encoded id', async () => {
    const fetchMock = planFetch(answer(200, patient));

    await expect(getPatient('a/b')).resolves.toEqual(patient);
    expect(requestsOf(fetchMock)).toEqual([{ url: '/api/patients/a%2Fb', method: 'GET' }]);
  });

  it('fails with the server error when there is no such record', async () => {
    planFetch(answer(404, { error: { code: 'not_found', message: 'Patient not found.' } }));

    const error = await failureOf(getPatient(patientId));
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('createPatient', () => {
  it('posts the details and returns the record', async () => {
    const fetchMock = planFetch(answer(201, patient));
    const body = { number: 'MRN-1001', name: 'Thandi Mokoena', birthDate: '1970-03-14' };

    await expect(createPatient(body)).resolves.toEqual(patient);
    expect(requestsOf(fetchMock)).toEqual([{ url: '/api/patients', method: 'POST' }]);
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(JSON.stringify(body));
  });

  it('fails naming the number when another patient has it', async () => {
    planFetch(
      answer(409, {
        error: {
          code: 'conflict',
          message: patientNumberTakenMessage,
          field: 'number',
          existingId: patientId,
        },
      }),
    );

    const error = await failureOf(createPatient({ number: 'MRN-1001' }));
    expect(error).toMatchObject({ status: 409, code: 'conflict', field: 'number' });
  });
});

describe('patientAssessments', () => {
  it("lists the patient's assessments", async () => {
    const fetchMock = planFetch(answer(200, { items: [earlier] }));

    await expect(patientAssessments(patientId)).resolves.toEqual([earlier]);
    expect(requestsOf(fetchMock)).toEqual([
      { url: `/api/patients/${patientId}/assessments`, method: 'GET' },
    ]);
  });

  it('refuses an answer that does not match the contract', async () => {
    planFetch(answer(200, { items: [{ ...earlier, results: 'none' }] }));

    const error = await failureOf(patientAssessments(patientId));
    expect(error).toMatchObject({ code: 'internal' });
  });
});
