/**
 * History: GET /api/assessments (the list, a free-text search, a code search, 'signed off' and
 * a 30-day date filter) over a database of N seeded assessments; p50/p95 latency.
 *
 * Baseline: GET /api/session on the same server and connection, the cheapest signed-in request
 * (the session lookup every history request also makes), so the ratio is what the history query
 * itself costs above a request's floor.
 *
 *   node bench/history.ts [--engine sqlite|postgres|both] [--assessments 100000] [--keep]
 */
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

const requestsPerQuery = 40;
const warmUpRequests = 2;
/** Rounds stop early after this long (with at least `minimumRounds`): a slow query is plain soon. */
const budgetMs = 180_000;
const minimumRounds = 5;

const options = parseBenchOptions();

await forEachEngine(options, async (engine, fixtures) => {
  const fixture = await seededFixture(engine, options.assessments, { keep: options.keep });
  fixtures.push(fixture);
  const server = await startServer(fixture);
  try {
    const cookie = await signIn(server, await createBenchUser(fixture));
    const first = (await (
      await fetch(`${server.url}/api/assessments?limit=20`, { headers: { cookie } })
    ).json()) as { items: { id: string; code: string | null; createdAt: string }[] };
    const sample = first.items[7] ?? first.items[0];
    if (sample === undefined) throw new Error('The seeded history is empty');
    const newest = new Date(sample.createdAt);
    const monthBefore = new Date(newest.getTime() - 30 * 86_400_000);
    const day = (date: Date) => date.toISOString().slice(0, 10);
    const queries: [string, string][] = [
      ['session (baseline)', '/api/session'],
      ['list, newest 20', '/api/assessments?limit=20'],
      // The end of an id: its start is its creation time, which the records of a few hours share.
      ['free text (end of an id)', `/api/assessments?q=${sample.id.slice(-8)}`],
      ['code', `/api/assessments?q=${encodeURIComponent(sample.code ?? sample.id)}`],
      ["'signed off'", '/api/assessments?q=signed%20off'],
      ['date filter, 30 days', `/api/assessments?from=${day(monthBefore)}&to=${day(newest)}`],
    ];
    const samples = queries.map((): number[] => []);
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
    printTable(
      `History on ${engine}: ${options.assessments.toLocaleString('en')} assessments, ${samples[0]?.length ?? 0} requests each, p50 / p95`,
      latencyRowsAgainstFirst(
        queries.slice(1).map(([label]) => label),
        samples,
      ),
    );
  } finally {
    await server.stop();
  }
});
