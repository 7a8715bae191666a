import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssessmentList } from '../../shared/api/assessments.ts';
import {
  calendarDateRangeMessage,
  earliestCalendarDate,
  latestCalendarDate,
} from '../../shared/api/calendar-date.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

/** Every route that takes a date filter: the history, the population panel, exports, audit. */
const dateRoutes = [
  '/api/assessments',
  '/api/assessments/population',
  '/api/exports/assessments.csv',
  '/api/exports/assessments.txt',
  '/api/exports/fhir.ndjson',
  '/api/audit',
  '/api/audit.csv',
];

describe.each(testDatabases())('date filters on $engine', (testDatabase) => {
  let t: TestApp;
  let admin: { cookie: string };

  beforeAll(async () => {
    // Far ahead of UTC: the last day's end is the latest instant any zone computes.
    t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Pacific/Kiritimati' });
    admin = await signedInAs(t, 'admin', 'admin-ada', 'Ada Admin');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: admin.cookie },
      payload: { demographics: { age: 40, gender: 'Male', height: 170, weight: 70 } },
    });
    expect(saved.statusCode, saved.body).toBe(201);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } });

  it.each(dateRoutes)('%s refuses ?to=9999-12-31 with 400 naming the field', async (route) => {
    const response = await get(`${route}?to=9999-12-31`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'validation_failed',
        message: `to: ${calendarDateRangeMessage}`,
        field: 'to',
      },
    });
  });

  it.each(dateRoutes)('%s refuses days that do not exist or are out of range', async (route) => {
    for (const [field, date] of [
      ['from', '2026-02-30'],
      ['to', '2026-13-01'],
      ['from', '0000-00-00'],
      ['from', '0001-01-01'],
      ['to', '1899-12-31'],
      ['to', '10000-01-01'],
      ['from', '+010000-01-01'],
    ] as const) {
      const response = await get(`${route}?${field}=${encodeURIComponent(date)}`);
      expect(response.statusCode, `${field}=${date}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'validation_failed', field } });
    }
  });

  it.each(dateRoutes)('%s answers for the first and last dates it takes', async (route) => {
    const response = await get(`${route}?from=${earliestCalendarDate}&to=${latestCalendarDate}`);
    expect(response.statusCode, response.body).toBe(200);
  });

  it.each(dateRoutes)('%s answers a start after the end with nothing found', async (route) => {
    const response = await get(`${route}?from=2026-12-01&to=2026-11-01`);
    expect(response.statusCode, response.body).toBe(200);
  });

  it('finds the saved assessment across the whole range and none in a reversed one', async () => {
    const whole = await get(
      `/api/assessments?from=${earliestCalendarDate}&to=${latestCalendarDate}`,
    );
    expect(whole.json<AssessmentList>().total).toBe(1);
    const reversed = await get('/api/assessments?from=2026-12-01&to=2026-11-01');
    expect(reversed.json<AssessmentList>().total).toBe(0);
  });
});
