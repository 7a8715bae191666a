/**
 * Dashboard: the population panel (GET /api/assessments/population) and Doctor Agreement (GET
 * /api/reviews/agreement), unfiltered and over 30 days, over a database of N seeded assessments;
 * p50/p95 latency. Both sum the counts the database keeps per day.
 *
 * Baseline: GET /api/session on the same server and connection, the cheapest signed-in request
 * (the session lookup every dashboard request also makes).
 *
 *   node bench/dashboard.ts [--engine sqlite|postgres|both] [--assessments 100000] [--keep]
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

const requestsPerQuery = 40;
const warmUpRequests = 2;

const options = parseBenchOptions();

await forEachEngine(options, async (engine, fixtures) => {
  const fixture = await seededFixture(engine, options.assessments, { keep: options.keep });
  fixtures.push(fixture);
  const server = await startServer(fixture);
  try {
    const cookie = await signIn(server, await createBenchUser(fixture));
    const newestPage = (await (
      await fetch(`${server.url}/api/assessments?limit=1`, { headers: { cookie } })
    ).json()) as { items: { createdAt: string }[] };
    const newestItem = newestPage.items[0];
    if (newestItem === undefined) throw new Error('The seeded history is empty');
    const newest = new Date(newestItem.createdAt);
    const monthBefore = new Date(newest.getTime() - 30 * 86_400_000);
    const day = (date: Date) => date.toISOString().slice(0, 10);
    const days = `from=${day(monthBefore)}&to=${day(newest)}`;
    const queries: [string, string][] = [
      ['session (baseline)', '/api/session'],
      ['population, all', '/api/assessments/population'],
      ['population, 30 days', `/api/assessments/population?${days}`],
      ['agreement, all', '/api/reviews/agreement'],
      ['agreement, 30 days', `/api/reviews/agreement?${days}`],
    ];
    console.log(
      `Load average when the timing starts: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
    const samples = queries.map((): number[] => []);
    // Round-robin, so that load from other processes falls on every query alike.
    for (let round = 0; round < warmUpRequests + requestsPerQuery; round++) {
      for (const [index, [, path]] of queries.entries()) {
        const ms = await timedGet(`${server.url}${path}`, cookie);
        if (round >= warmUpRequests) samples[index]?.push(ms);
      }
    }
    console.log(
      `Load average when the timing ends: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
    printTable(
      `Dashboard on ${engine}: ${options.assessments.toLocaleString('en')} assessments, ${requestsPerQuery} requests each, p50 / p95`,
      latencyRowsAgainstFirst(
        queries.slice(1).map(([label]) => label),
        samples,
      ),
    );
  } finally {
    await server.stop();
  }
});
