import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITIONS, RISK_STATUSES, score } from '../../engine/index.ts';
import type { AssessmentBody, Assessment, AssessmentList } from '../../shared/api/assessments.ts';
import type { Population, StatusCounts } from '../../shared/api/population.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

const day = 24 * 3_600_000;

/** Thirsty, tired, with a family history of diabetes and diagnosed hypertension. */
const woman62: AssessmentBody = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { familyHistory: { DM2: true } },
  symptoms: {
    DM2: { thirst: { present: true, severity: 'moderate' }, fatigue: { present: true } },
  },
  management: { Hypertension: { diagnosed: true } },
};
const man30: AssessmentBody = {
  demographics: { age: 30, gender: 'Male', height: 175, weight: 70 },
  symptoms: { Asthma: { wheezing: { present: true, severity: 'severe' } } },
};
/** No demographics: the conditions whose risk factors read them are 'Insufficient Data'. */
const unknownPatient: AssessmentBody = {};
const diagnosedTb: AssessmentBody = {
  demographics: { age: 41, gender: 'Male', height: 170, weight: 90 },
  management: { TB: { diagnosed: true }, HIV: { diagnosed: true } },
};

/** What the panel should say for these inputs: the engine's statuses, summed per condition. */
function expectedCounts(bodies: AssessmentBody[]): Population {
  return {
    conditions: CONDITIONS.map((condition) => {
      const counts = Object.fromEntries(RISK_STATUSES.map((s) => [s, 0])) as StatusCounts;
      for (const body of bodies) {
        const status = score(body).conditions.find((c) => c.condition === condition)?.riskStatus;
        if (status !== undefined) counts[status] += 1;
      }
      return { condition, counts };
    }),
  };
}

function countsOf(population: Population, condition: string): StatusCounts | undefined {
  return population.conditions.find((c) => c.condition === condition)?.counts;
}

describe.each(testDatabases())('the population panel API on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  const created: Record<string, Assessment> = {};

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    // The clock starts at 2026-11-22 11:00 in Johannesburg; a day passes before the last two.
    nurse = await signedInAs(t, 'nurse');
    const add = async (name: string, body: AssessmentBody) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/assessments',
        headers: { cookie: nurse.cookie },
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(201);
      created[name] = response.json<Assessment>();
    };
    await add('woman62', woman62);
    await add('man30', man30);
    await add('deleted', woman62);
    t.advance(day);
    nurse = await signedInAs(t, 'nurse');
    await add('unknownPatient', unknownPatient);
    await add('diagnosedTb', diagnosedTb);
    for (const [method, url] of [
      ['DELETE', `/api/assessments/${created.deleted?.id ?? ''}`],
      ['POST', `/api/assessments/${created.diagnosedTb?.id ?? ''}/sign-off`],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: { cookie: nurse.cookie, 'if-match': '"1"' },
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  /** A null cookie is a request from someone not signed in. */
  const get = (url: string, cookie: string | null = nurse.cookie) =>
    t.app.inject({ method: 'GET', url, headers: cookie === null ? {} : { cookie } });
  const population = async (query = '') => {
    const response = await get(`/api/assessments/population${query === '' ? '' : `?${query}`}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Population>();
  };

  it('counts each condition’s risk statuses over the live assessments, deleted ones left out', async () => {
    const counts = await population();
    expect(counts).toEqual(expectedCounts([woman62, man30, unknownPatient, diagnosedTb]));
    // Read by hand: one diabetic-risk woman, one untested patient, two without DM2 factors.
    expect(countsOf(counts, 'DM2')).toEqual({
      TRUE: 1,
      MAYBE: 0,
      FALSE: 2,
      DIAGNOSED: 0,
      UNKNOWN: 1,
    });
    expect(countsOf(counts, 'TB')?.DIAGNOSED).toBe(1);
    expect(countsOf(counts, 'Hypertension')?.DIAGNOSED).toBe(1);
  });

  it.each([
    // Matches everything through the filtered query, which must agree with the unfiltered one.
    ['from=2026-11-01', [woman62, man30, unknownPatient, diagnosedTb]],
    ['q=female', [woman62]],
    ['q=signed%20off', [diagnosedTb]],
    ['q=not%20signed%20off%20male', [man30]],
    ['from=2026-11-23', [unknownPatient, diagnosedTb]],
    ['to=2026-11-22', [woman62, man30]],
    ['from=2026-11-24', []],
  ])('narrows to the history’s matches for %s', async (query, bodies) => {
    const counts = await population(query);
    expect(counts).toEqual(expectedCounts(bodies));
    // Every condition counts each matching assessment once, as the history's total does.
    const list = (await get(`/api/assessments?${query}`)).json<AssessmentList>();
    for (const { counts: perCondition } of counts.conditions) {
      expect(Object.values(perCondition).reduce((sum, n) => sum + n, 0)).toBe(list.total);
    }
  });

  it('is not taken for an assessment id, which still reads its assessment', async () => {
    const counts = await population();
    expect(counts.conditions.map((c) => c.condition)).toEqual([...CONDITIONS]);
    const one = await get(`/api/assessments/${created.man30?.id ?? ''}`);
    expect(one.statusCode).toBe(200);
    expect(one.json<Assessment>().id).toBe(created.man30?.id);
  });

  it('needs a session and refuses a malformed date', async () => {
    expect((await get('/api/assessments/population', null)).statusCode).toBe(401);
    const badDate = await get('/api/assessments/population?from=23/11/2026');
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json<{ error: { field: string } }>().error.field).toBe('from');
  });
});
