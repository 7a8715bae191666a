import { afterEach, describe, expect, it, vi } from 'vitest';
import { score, type PatientData } from '../../engine/index.ts';
import {
  assessmentSchema,
  staleVersionMessage,
  type Assessment,
  type AssessmentBody,
} from '../../shared/api/assessments.ts';
import { saveNewAssessment, signOffAssessment } from './assessments.ts';
import { answer, failureOf, planFetch } from './planned-fetch.ts';

const code = 'ASS-MHX3K2QZ-7F2A';
const storedId = 'a6f1c2de-0000-4000-8000-000000000001';
const creator = 'Nurse Ann';

const input: PatientData = {
  demographics: { age: 54, gender: 'Female', height: 165, weight: 82 },
  riskFactors: { smoking: true },
};
const body: AssessmentBody & { code: string } = { ...input, code, notes: 'Second attempt' };

/** A stored assessment as the server answers it; the scores come from the engine itself. */
function assessmentOf(fields: Partial<Assessment> = {}): Assessment {
  const results = score(input);
  return assessmentSchema.parse({
    id: storedId,
    code,
    version: 1,
    demographics: { ...input.demographics, bmi: results.patientBMI },
    riskFactors: input.riskFactors,
    symptoms: {},
    management: {},
    notes: 'First attempt',
    results,
    assessmentComplete: results.assessmentComplete,
    totalScore: results.totalScore,
    signedOff: false,
    signedOffAt: null,
    signedOffBy: null,
    createdAt: '2026-11-22T09:00:00.000Z',
    updatedAt: '2026-11-22T09:00:00.000Z',
    createdBy: creator,
    deletedAt: null,
    patient: null,
    previousAssessment: null,
    ...fields,
  });
}

const codeTaken = () =>
  answer(409, {
    error: {
      code: 'conflict',
      message: `An assessment with the code ${code} already exists.`,
      field: 'code',
      existingId: storedId,
    },
  });

function requestsOf(fetchMock: ReturnType<typeof planFetch>) {
  return fetchMock.mock.calls.map(([url, init]) => ({ url, method: init?.method }));
}

/** The JSON a request sent. */
function sentJson(init: RequestInit | undefined): unknown {
  if (typeof init?.body !== 'string') throw new Error('expected a JSON body');
  return JSON.parse(init.body);
}

/** The refused create, then the stored record the 409 names: no search for it. */
const lookup = [
  { url: '/api/assessments', method: 'POST' },
  { url: `/api/assessments/${storedId}`, method: 'GET' },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('saveNewAssessment', () => {
  it('returns the created record after one request', async () => {
    const created = assessmentOf();
    const fetchMock = planFetch(answer(201, created));
    await expect(saveNewAssessment(body, creator)).resolves.toEqual(created);
    expect(requestsOf(fetchMock)).toEqual([{ url: '/api/assessments', method: 'POST' }]);
    expect(sentJson(fetchMock.mock.calls[0]?.[1])).toEqual(body);
  });

  it('updates the record an unanswered earlier save stored, at version 1', async () => {
    const stored = assessmentOf();
    const updated = assessmentOf({
      version: 2,
      notes: 'Second attempt',
      updatedAt: '2026-11-22T09:05:00.000Z',
    });
    const fetchMock = planFetch(codeTaken(), answer(200, stored), answer(200, updated));

    await expect(saveNewAssessment(body, creator)).resolves.toEqual(updated);
    expect(requestsOf(fetchMock)).toEqual([
      ...lookup,
      { url: `/api/assessments/${storedId}`, method: 'PUT' },
    ]);
    const put = fetchMock.mock.calls[2]?.[1];
    expect(put?.headers).toMatchObject({ 'if-match': '"1"' });
    expect(sentJson(put)).toEqual(body);
  });

  it('names by its id a new patient that the unanswered save already made', async () => {
    const patient = { id: 'p-1', number: 'MRN-77', name: 'Sipho Dlamini' };
    const stored = assessmentOf({ patient });
    const updated = assessmentOf({ version: 2, patient, notes: 'Second attempt' });
    const fetchMock = planFetch(codeTaken(), answer(200, stored), answer(200, updated));
    const withNewPatient = { ...body, newPatient: { number: 'mrn-77', name: 'Sipho Dlamini' } };

    await expect(saveNewAssessment(withNewPatient, creator)).resolves.toEqual(updated);
    expect(sentJson(fetchMock.mock.calls[0]?.[1])).toEqual(withNewPatient);
    expect(sentJson(fetchMock.mock.calls[2]?.[1])).toEqual({ ...body, patientId: 'p-1' });
  });

  it('keeps a new patient whose number the stored save does not have', async () => {
    const stored = assessmentOf({ patient: { id: 'p-1', number: 'MRN-7', name: null } });
    const fetchMock = planFetch(
      codeTaken(),
      answer(200, stored),
      answer(200, assessmentOf({ version: 2 })),
    );
    const withNewPatient = { ...body, newPatient: { number: 'MRN-77' } };

    await saveNewAssessment(withNewPatient, creator);
    expect(sentJson(fetchMock.mock.calls[2]?.[1])).toEqual(withNewPatient);
  });

  it.each([
    ['someone else created it', { createdBy: 'Dr Ben' }],
    ['its creator is unknown', { createdBy: null }],
    ['it was changed since', { version: 2 }],
    // An administrator sees a deleted record; its deletion changed the version too.
    ['it is deleted', { deletedAt: '2026-11-22T09:03:00.000Z' }],
  ])('rethrows the 409 without updating when %s', async (_case, fields) => {
    const stored = assessmentOf(fields);
    const fetchMock = planFetch(codeTaken(), answer(200, stored));

    const error = await failureOf(saveNewAssessment(body, creator));
    expect(error).toMatchObject({ status: 409, code: 'conflict', field: 'code' });
    expect(requestsOf(fetchMock)).toEqual(lookup);
  });

  it('rethrows the 409 when the record it names cannot be read (deleted, to this user)', async () => {
    const fetchMock = planFetch(
      codeTaken(),
      answer(404, { error: { code: 'not_found', message: 'Assessment not found.' } }),
    );

    const error = await failureOf(saveNewAssessment(body, creator));
    expect(error).toMatchObject({ status: 409, code: 'conflict', field: 'code' });
    expect(requestsOf(fetchMock)).toEqual(lookup);
  });

  it('rethrows a failure to read the record it names as that failure', async () => {
    planFetch(codeTaken(), answer(500, { error: { code: 'internal', message: 'Broken.' } }));

    const error = await failureOf(saveNewAssessment(body, creator));
    expect(error).toMatchObject({ status: 500, code: 'internal' });
  });

  it.each<[number, { code: string; message: string; field?: string }]>([
    [400, { code: 'validation_failed', message: 'Invalid age.', field: 'demographics.age' }],
    [500, { code: 'internal', message: 'Something went wrong.' }],
    [409, { code: 'signed_off', message: 'Cannot update signed-off assessment' }],
    [409, { code: 'conflict', message: 'Taken.', field: 'username' }],
    [409, { code: 'conflict', message: 'Taken, by a record not named.', field: 'code' }],
  ])('rethrows a %i %o without looking further', async (status, envelope) => {
    const fetchMock = planFetch(answer(status, { error: envelope }));

    const error = await failureOf(saveNewAssessment(body, creator));
    expect(error).toMatchObject({ status, code: envelope.code, field: envelope.field });
    expect(requestsOf(fetchMock)).toEqual(lookup.slice(0, 1));
  });
});

describe('signOffAssessment', () => {
  it('names the version the user saw in If-Match', async () => {
    const signed = assessmentOf({
      version: 4,
      signedOff: true,
      signedOffAt: '2026-11-22T09:05:00.000Z',
      signedOffBy: creator,
    });
    const fetchMock = planFetch(answer(200, signed));

    await expect(signOffAssessment(storedId, 3)).resolves.toEqual(signed);
    expect(requestsOf(fetchMock)).toEqual([
      { url: `/api/assessments/${storedId}/sign-off`, method: 'POST' },
    ]);
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ 'if-match': '"3"' });
  });

  it('fails with the stale-version message when someone else changed it since (412)', async () => {
    planFetch(answer(412, { error: { code: 'stale_version', message: staleVersionMessage } }));

    const error = await failureOf(signOffAssessment(storedId, 3));
    expect(error).toMatchObject({
      status: 412,
      code: 'stale_version',
      message: staleVersionMessage,
    });
  });
});
