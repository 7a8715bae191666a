/**
 * Scale-out (PostgreSQL only): two `triage serve` instances on one database serve the same
 * users. Checks that a session made on one instance works on the other, then measures the save
 * throughput of both together (half the clients each) against one instance alone with all the
 * clients. Both instances run on this one machine, so the ratio says what a second process
 * gains on the same cores, not on a second machine.
 *
 *   node bench/scale-out.ts [--clients 16] [--seconds 10]
 */
import {
  createBenchUser,
  emptyFixture,
  parseBenchOptions,
  percentile,
  printTable,
  signIn,
  startServer,
  describeMachine,
} from './harness.ts';
import { assessmentBody, postLoad, requireTool } from './load.ts';

requireTool('wrk', 'wrk');
const options = parseBenchOptions();
const body = assessmentBody();
console.log(`Machine: ${describeMachine()}`);

const fixture = await emptyFixture('postgres', 'scale_out');
try {
  const first = await startServer(fixture);
  const second = await startServer(fixture);
  try {
    const cookie = await signIn(first, await createBenchUser(fixture));
    const onSecond = await fetch(`${second.url}/api/session`, { headers: { cookie } });
    if (!onSecond.ok)
      throw new Error(`The session made on one instance failed on the other: ${onSecond.status}`);
    console.log('A session made on the first instance is accepted by the second.');

    const load = (url: string, connections: number, seconds: number) =>
      postLoad({ url: `${url}/api/assessments`, cookie, body, connections, seconds });
    await load(first.url, options.clients, 2);
    await load(second.url, options.clients, 2);
    const alone = await load(first.url, options.clients, options.seconds);
    const half = Math.max(1, Math.floor(options.clients / 2));
    const together = await Promise.all([
      load(first.url, half, options.seconds),
      load(second.url, options.clients - half, options.seconds),
    ]);
    const togetherPerSecond = together.reduce((sum, result) => sum + result.requestsPerSecond, 0);
    const failures = alone.failures + together.reduce((sum, result) => sum + result.failures, 0);
    printTable(
      `Scale-out on postgres: ${options.clients} clients, ${options.seconds} s (${failures} failed requests)`,
      [
        {
          measure: 'saves a second, two instances (baseline: one)',
          figure: togetherPerSecond,
          baseline: alone.requestsPerSecond,
          unit: '/s',
        },
        {
          measure: 'p99 latency, worse instance (baseline: one)',
          figure: percentile(
            together.map((result) => result.p99Ms),
            1,
          ),
          baseline: alone.p99Ms,
          unit: 'ms',
        },
      ],
    );
  } finally {
    await first.stop();
    await second.stop();
  }
} finally {
  await fixture.drop();
}
