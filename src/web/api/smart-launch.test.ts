import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SmartLaunch, SmartWriteBackResult } from '../../shared/api/smart-launch.ts';
import { getSmartLaunch, writeBackToRecord } from './smart-launch.ts';
import { answer, failureOf, planFetch } from './planned-fetch.ts';

const launch: SmartLaunch = {
  id: 'l-1',
  issuer: 'https://ehr.clinic.example/fhir/R4',
  patientRecordId: 'p-1',
  values: [
    { field: 'age', value: 58, date: '1968-05-14', filled: true },
    { field: 'weight', value: 88, date: '2026-10-02', filled: true },
    { field: 'smoking', value: true, date: '2019-03-01', filled: false },
    { field: 'diagnosed', condition: 'Hypertension', value: true, date: null, filled: true },
  ],
  unread: [{ resource: 'Condition', reason: 'Not granted by the record system.' }],
  writeBack: true,
  writtenBack: null,
};

const sent: SmartWriteBackResult = { created: 6, alreadyThere: 0, at: '2026-11-30T10:00:00.000Z' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('getSmartLaunch', () => {
  it('reads the launch by its encoded id', async () => {
    const fetchMock = planFetch(answer(200, launch));

    await expect(getSmartLaunch('l/1')).resolves.toEqual(launch);
    expect(fetchMock.mock.calls.map(([url, init]) => [url, init?.method])).toEqual([
      ['/api/smart/launches/l%2F1', 'GET'],
    ]);
  });

  it("fails with the server's message for a launch it does not know", async () => {
    planFetch(answer(404, { error: { code: 'not_found', message: 'This launch has expired.' } }));

    const error = await failureOf(getSmartLaunch('l-1'));
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect(error.message).toBe('This launch has expired.');
  });

  it('refuses an answer that does not match the contract', async () => {
    planFetch(answer(200, { ...launch, values: [{ field: 'height', value: '170' }] }));

    expect(await failureOf(getSmartLaunch('l-1'))).toMatchObject({ code: 'internal' });
  });
});

describe('writeBackToRecord', () => {
  it('posts the assessment id and returns the counts', async () => {
    const fetchMock = planFetch(answer(200, sent));

    await expect(writeBackToRecord('l-1', 'a-1')).resolves.toEqual(sent);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect([url, init?.method, init?.body]).toEqual([
      '/api/smart/launches/l-1/write-back',
      'POST',
      JSON.stringify({ assessmentId: 'a-1' }),
    ]);
  });

  it("fails with the server's sentence when the record does not take it", async () => {
    const message = 'The record system did not take the assessment (503). Try again later.';
    planFetch(answer(502, { error: { code: 'record_write_failed', message } }));

    const error = await failureOf(writeBackToRecord('l-1', 'a-1'));
    expect(error).toMatchObject({ status: 502, code: 'record_write_failed', message });
  });
});
