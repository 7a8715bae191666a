import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { Population } from '../../shared/api/population.ts';
import type { AgreementSummary } from '../../shared/api/reviews.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { madeUnit } from '../testing/org-units.ts';
import { requestsAs, type Requests } from '../testing/requests.ts';
import { highRiskBody, lowRiskBody, moderateRiskBody } from '../testing/risk-bodies.ts';
import { signedInAs } from '../testing/users.ts';

type Who = { cookie: string };

/** The panel's figures as one number per condition and status: 'DM2 TRUE 2'. */
function figures(population: Population): string[] {
  return population.conditions.flatMap(({ condition, counts }) =>
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${condition} ${status} ${n}`),
  );
}

function reviewed(summary: AgreementSummary): number[] {
  return summary.conditions.map((row) => row.reviewed);
}

/**
 * The population panel and the Doctor Agreement within the caller's scope (issue 36): two units
 * under MAIN, each with its own assessments and finalized reviews.
 */
describe.each(testDatabases())(
  'the dashboard’s figures within a scope on $engine',
  (testDatabase) => {
    let t: TestApp;
    let call: Requests;
    let admin: Who;
    let westDoctor: Who;
    let eastDoctor: Who;
    let west: string;
    let east: string;

    beforeAll(async () => {
      t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
      call = requestsAs(t);
      admin = await signedInAs(t, 'admin');
      west = (await madeUnit(t, admin, 'WEST')).id;
      east = (await madeUnit(t, admin, 'EAST')).id;
      westDoctor = await signedInAs(t, 'doctor', undefined, undefined, [west]);
      eastDoctor = await signedInAs(t, 'doctor', undefined, undefined, [east]);
      // West: two at High, one Low, one review agreeing on DM2. East: one at Moderate, with a
      // review disagreeing on DM2 with a comment.
      for (const [doctor, bodies, agreed] of [
        [westDoctor, [highRiskBody, highRiskBody, lowRiskBody], true],
        [eastDoctor, [moderateRiskBody], false],
      ] as const) {
        const saved: Assessment[] = [];
        for (const body of bodies) {
          const response = await call(doctor, 'POST', '/api/assessments', body);
          expect(response.statusCode, response.body).toBe(201);
          saved.push(response.json<Assessment>());
        }
        const locked = await call(doctor, 'POST', `/api/assessments/${saved[0]?.id}/review/lock`, {
          reviews: [{ condition: 'DM2', agreed, comments: agreed ? '' : 'Seen, not so' }],
        });
        expect(locked.statusCode, locked.body).toBe(200);
      }
    });
    afterAll(async () => {
      await t.close();
    });

    const population = async (who: Who, query = '') => {
      const response = await call(who, 'GET', `/api/assessments/population${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return figures(response.json<Population>());
    };
    const agreement = async (who: Who, query = '') => {
      const response = await call(who, 'GET', `/api/reviews/agreement${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<AgreementSummary>();
    };

    it('counts the population of the caller’s units only, from the kept counts and by search', async () => {
      expect(await population(westDoctor)).toContain('DM2 TRUE 2');
      expect(await population(westDoctor)).not.toContain('DM2 MAYBE 1');
      expect(await population(eastDoctor)).toContain('DM2 MAYBE 1');
      expect(await population(eastDoctor)).not.toContain('DM2 TRUE 2');
      // Everything: both units, as before units.
      const all = await population(admin);
      expect(all).toEqual(expect.arrayContaining(['DM2 TRUE 2', 'DM2 MAYBE 1']));
      expect(await population(admin, `?unit=${west}`)).toEqual(await population(westDoctor));
      expect(await population(admin, `?unit=${east}`)).toEqual(await population(eastDoctor));
      // A search counts the matching assessments, within the scope too: all four are women.
      expect(await population(westDoctor, '?q=female')).toEqual(await population(westDoctor));
      expect(await population(eastDoctor, '?q=female')).toEqual(await population(eastDoctor));
      expect(await population(admin, '?q=female')).toEqual(all);
      // And a date range reads the days' rows of the caller's units.
      expect(await population(eastDoctor, '?from=2026-11-01&to=2026-11-30')).toEqual(
        await population(eastDoctor),
      );
    });

    it('measures the Doctor Agreement over the caller’s units only, comments too', async () => {
      const westSummary = await agreement(westDoctor);
      const eastSummary = await agreement(eastDoctor);
      const dm2 = (summary: AgreementSummary) =>
        summary.conditions.find((row) => row.condition === 'DM2');
      expect(dm2(westSummary)).toMatchObject({ reviewed: 1, agreed: 1 });
      expect(dm2(westSummary)?.latestComments).toEqual([]);
      expect(dm2(eastSummary)).toMatchObject({ reviewed: 1, agreed: 0 });
      expect(dm2(eastSummary)?.latestComments.map((comment) => comment.comments)).toEqual([
        'Seen, not so',
      ]);
      expect(dm2(await agreement(admin))).toMatchObject({ reviewed: 2, agreed: 1 });
      expect(reviewed(await agreement(admin, `?unit=${east}`))).toEqual(reviewed(eastSummary));

      const csv = await call(westDoctor, 'GET', '/api/reviews/agreement.csv');
      expect(csv.statusCode).toBe(200);
      expect(csv.body.split('\r\n').find((line) => line.startsWith('DM2,'))).toMatch(/^DM2,1,1,1,/);
    });

    it('answers a unit outside the scope as if it did not exist', async () => {
      for (const url of [
        `/api/assessments/population?unit=${east}`,
        `/api/reviews/agreement?unit=${east}`,
        `/api/reviews/agreement.csv?unit=${east}`,
      ]) {
        const response = await call(westDoctor, 'GET', url);
        expect(response.statusCode, url).toBe(404);
      }
    });

    it('documents the unit parameter of each read', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
        paths: Record<string, { get: { parameters: { name: string; description?: string }[] } }>;
      }>();
      for (const path of [
        '/api/assessments/population',
        '/api/reviews/agreement',
        '/api/reviews/agreement.csv',
      ]) {
        const unit = document.paths[path]?.get.parameters.find((p) => p.name === 'unit');
        expect(unit?.description, path).toBe(
          'Narrows the answer to this organisation unit and the units below it, within your scope',
        );
      }
    });
  },
);
