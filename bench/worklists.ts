/**
 * Worklists: GET /api/worklists/review and GET /api/worklists/follow-up (the first page, and the
 * fifth through the cursor) over a database of N seeded assessments spread over 3 patient
 * records in 10; p50/p95 latency, with the load average beside the figures.
 *
 * Baseline: GET /api/session on the same server and connection, the cheapest signed-in request
 * (the session lookup every worklist request also makes).
 *
 *   node bench/worklists.ts [--engine sqlite|postgres|both] [--assessments 100000] [--keep]
 */
import os from 'node:os';
import {
  createBenchUser,
  forEachEngine,
  parseBenchOptions,
  printTable,
  seededFixture,
  signIn,
  startServer,
  latencyRowsAgainstFirst,
  timedGet,
} from './harness.ts';

const requestsPerQuery = 60;
const warmUpRequests = 3;
const budgetMs = 180_000;
const minimumRounds = 5;

async function json<T>(url: string, cookie: string): Promise<T> {
  const response = await fetch(url, { headers: { cookie } });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.json()) as T;
}

const options = parseBenchOptions();

await forEachEngine(options, async (engine, fixtures) => {
  // Over 3 patient records in 10, in a database of its own.
  const fixture = await seededFixture(engine, options.assessments, {
    patients: Math.max(1, Math.round(options.assessments * 0.3)),
    label: 'worklists',
    keep: options.keep,
  });
  fixtures.push(fixture);
  const server = await startServer(fixture);
  try {
    const cookie = await signIn(server, await createBenchUser(fixture));
    /** The cursor of the fifth page of 20. */
    const fifthPage = async (list: string) => {
      let cursor: string | null = null;
      for (let page = 1; page < 5; page++) {
        const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const answer: { nextCursor: string | null; total: number } = await json(
          `${server.url}/api/worklists/${list}?limit=20${query}`,
          cookie,
        );
        cursor = answer.nextCursor;
        if (page === 1) console.log(`${list}: ${answer.total.toLocaleString('en')} listed`);
      }
      return cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    };
    const queries: [string, string][] = [
      ['session (baseline)', '/api/session'],
      ['Awaiting Review, first 20', '/api/worklists/review?limit=20'],
      ['Awaiting Review, fifth page', `/api/worklists/review?limit=20${await fifthPage('review')}`],
      ['Follow-up Due, first 20', '/api/worklists/follow-up?limit=20'],
      [
        'Follow-up Due, fifth page',
        `/api/worklists/follow-up?limit=20${await fifthPage('follow-up')}`,
      ],
      ['navigation badge (limit=1)', '/api/worklists/review?limit=1'],
    ];
    const samples = queries.map((): number[] => []);
    const loadBefore = os.loadavg()[0] ?? 0;
    // Round-robin, so that load from other processes falls on every query alike.
    const started = performance.now();
    for (let round = 0; round < warmUpRequests + requestsPerQuery; round++) {
      const timed = round - warmUpRequests;
      if (timed >= minimumRounds && performance.now() - started > budgetMs) break;
      for (const [index, [, path]] of queries.entries()) {
        const ms = await timedGet(`${server.url}${path}`, cookie);
        if (round >= warmUpRequests) samples[index]?.push(ms);
      }
    }
    const loadAfter = os.loadavg()[0] ?? 0;
    printTable(
      `Worklists on ${engine}: ${options.assessments.toLocaleString('en')} assessments, ${samples[0]?.length ?? 0} requests each, p50 / p95 (1-minute load ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after)`,
      latencyRowsAgainstFirst(
        queries.slice(1).map(([label]) => label),
        samples,
      ),
    );
  } finally {
    await server.stop();
  }
});
