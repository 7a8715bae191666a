/**
 * Save: POST /api/assessments from N concurrent clients (wrk) against an empty database;
 * throughput and p50/p99 latency.
 *
 * Baseline: the rows that save writes (patient, assessment, symptoms, risk factors, management,
 * results, audit row) inserted with the driver alone, one transaction per assessment and one
 * statement per table, on the same database: SQLite on one connection with the server's
 * pragmas (its writes are serial whatever the client count), PostgreSQL from N pooled clients.
 *
 *   node bench/save.ts [--engine sqlite|postgres|both] [--clients 16] [--seconds 10]
 */
import type { PatientInput } from '../src/server/services/assessment-records.ts';
import { driverSavePostgres, driverSaveSqlite, authorOf } from './driver-baseline.ts';
import {
  createBenchUser,
  emptyFixture,
  forEachEngine,
  parseBenchOptions,
  percentile,
  printTable,
  signIn,
  startServer,
} from './harness.ts';
import { assessmentBody, postLoad, requireTool } from './load.ts';

requireTool('wrk', 'wrk');
const options = parseBenchOptions();
const body = assessmentBody();
const input: PatientInput = {
  demographics: body.demographics ?? {},
  riskFactors: body.riskFactors ?? {},
  symptoms: body.symptoms ?? {},
  management: body.management ?? {},
};
const notes = body.notes ?? null;

await forEachEngine(options, async (engine) => {
  const fixture = await emptyFixture(engine, 'save');
  try {
    // The server migrates the new database; the user is made after, as on a real install.
    const server = await startServer(fixture);
    const user = await createBenchUser(fixture);
    const author = await authorOf(fixture, user.username);
    const cookie = await signIn(server, user);
    // A short untimed run warms the server's code and the database up.
    await postLoad({
      url: `${server.url}/api/assessments`,
      cookie,
      body,
      connections: options.clients,
      seconds: 2,
    });
    const load = await postLoad({
      url: `${server.url}/api/assessments`,
      cookie,
      body,
      connections: options.clients,
      seconds: options.seconds,
    });
    await server.stop();
    const baseline =
      fixture.sqliteFile !== undefined
        ? driverSaveSqlite(fixture.sqliteFile, input, notes, author, options.seconds)
        : await driverSavePostgres(
            fixture.databaseUrl ?? '',
            input,
            notes,
            author,
            options.seconds,
            options.clients,
          );
    printTable(
      `Save on ${engine}: ${options.clients} clients, ${options.seconds} s, ${load.requests.toLocaleString('en')} saves (${load.failures} failed)`,
      [
        {
          measure: 'saves a second',
          figure: load.requestsPerSecond,
          baseline: baseline.perSecond,
          unit: '/s',
        },
        {
          measure: 'p50 latency',
          figure: load.p50Ms,
          baseline: percentile(baseline.latenciesMs, 0.5),
          unit: 'ms',
        },
        {
          measure: 'p99 latency',
          figure: load.p99Ms,
          baseline: percentile(baseline.latenciesMs, 0.99),
          unit: 'ms',
        },
      ],
    );
  } finally {
    await fixture.drop();
  }
});
