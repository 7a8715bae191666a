import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import { openTestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { requestsAs } from '../testing/requests.ts';
import { highRiskBody } from '../testing/risk-bodies.ts';
import { signedInAs } from '../testing/users.ts';

// Only PostgreSQL is a trip away; SQLite runs in the process. Where no PostgreSQL is given
// (`npm test`), the suite stands skipped; test:all and CI run it.
const postgresDatabases = testDatabases().filter((database) => database.engine === 'postgres');

afterEach(() => {
  vi.restoreAllMocks();
});

describe.runIf(postgresDatabases.length > 0)('a save on postgres', () => {
  for (const testDatabase of postgresDatabases) {
    it('sends its children rows in one statement (issue 35)', async () => {
      const t = await openTestApp(testDatabase);
      try {
        const call = requestsAs(t);
        const nurse = await signedInAs(t, 'nurse');
        // Every statement the server's connections send, counted while one request runs.
        const query = vi.spyOn(pg.Client.prototype, 'query');
        const tripsOf = async (request: () => Promise<{ statusCode: number; body: string }>) => {
          query.mockClear();
          const response = await request();
          expect(response.statusCode, response.body).toBeLessThan(300);
          return { trips: query.mock.calls.length, response };
        };
        // The session's lookup, the request's scope (issue 36) and the save's transaction: eleven
        // statements (one the read of the unit the assessment goes to), fourteen when the
        // symptoms, risk factors, management and results were each a statement of their own.
        const created = await tripsOf(() => call(nurse, 'POST', '/api/assessments', highRiskBody));
        expect(created.trips).toBeLessThanOrEqual(11);
        // Its rows as a read of them shows them.
        const assessment = JSON.parse(created.response.body) as Assessment;
        const stored = await call(nurse, 'GET', `/api/assessments/${assessment.id}`);
        expect(stored.json<Assessment>()).toEqual(assessment);
      } finally {
        await t.close();
      }
    });
  }
});
