import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssessmentList } from '../../shared/api/assessments.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

describe.each(testDatabases())('history cursors on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    nurse = await signedInAs(t, 'nurse', 'nurse-nia', 'Nia Nurse');
    for (let n = 0; n < 3; n += 1) {
      const saved = await t.app.inject({
        method: 'POST',
        url: '/api/assessments',
        headers: { cookie: nurse.cookie },
        payload: { demographics: { age: 40 + n, gender: 'Male', height: 170, weight: 70 } },
      });
      expect(saved.statusCode, saved.body).toBe(201);
      t.advance(1000);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const list = (query: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/assessments?${query}`,
      headers: { cookie: nurse.cookie },
    });

  it('pages with the cursors the server writes', async () => {
    const first = (await list('limit=2')).json<AssessmentList>();
    expect(first.nextCursor).not.toBeNull();
    const second = await list(`limit=2&cursor=${first.nextCursor ?? ''}`);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json<AssessmentList>().items).toHaveLength(1);
  });

  it('refuses a forged cursor with 400 naming the field, never 500', async () => {
    for (const text of [
      '1|abc',
      '2026-01-01T00:00:00.000Z|x\u0000',
      '+275760-09-13T00:00:00.000Z|a',
      '2026-02-30T00:00:00.000Z|a',
      '2026-01-01T24:00:00.000Z|a',
      '0000-01-01T00:00:00.000Z|a',
      'Tue Jan 01 2026|a',
      'no separator',
    ]) {
      const response = await list(`cursor=${cursorOf(text)}`);
      expect(response.statusCode, `${JSON.stringify(text)}: ${response.body}`).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'validation_failed', message: 'cursor: Invalid cursor', field: 'cursor' },
      });
    }
  });
});
