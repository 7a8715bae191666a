/**
 * Patients, over a database of N assessments seeded over P patient records (`triage seed
 * --patients`, 3 in 10 by default):
 *   1. the patient search, GET /api/patients?q=, with what a clerk types: the start of a patient
 *      number, a surname, a surname and the start of a first name; p50/p95;
 *   2. a patient page, GET /api/patients/:id then GET /api/patients/:id/assessments, for patients
 *      with 50 live assessments; p50/p95 of the two;
 *   3. the save rate of assessments that name a patient (`patientId`) from 16 clients (wrk), and
 *      the server's CPU time per save, which the load from other processes moves least.
 *
 * Baselines, measured in the same run on the same server: GET /api/session, the cheapest
 * signed-in request (one for a search; two one after the other for the page's two requests); for
 * the saves, the same save naming no patient, alternating with the linked one (anonymous,
 * linked, linked, anonymous), so that a change in load falls on both.
 *
 * The 1-minute load average before and after each measurement is printed beside its figure.
 * The saves are written into the seeded database (a few thousand among the million).
 *
 *   node bench/patients.ts [--engine sqlite|postgres|both] [--assessments 100000]
 *     [--patients 30000] [--clients 16] [--seconds 10] [--keep]
 */
import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import {
  createBenchUser,
  forEachEngine,
  loadDuring,
  parseBenchOptions,
  percentile,
  printTable,
  seededFixture,
  signIn,
  startServer,
  type Fixture,
  type Row,
  timedGet,
} from './harness.ts';
import { assessmentBody, postLoad, requireTool, type LoadResult } from './load.ts';

/** Timed requests per query (after the warm-up), each query's samples in turn. */
const requestsPerQuery = 200;
const warmUpRounds = 3;
/** Different records each kind of request is made for, taken in turn. */
const samplesPerQuery = 10;
/** Visits of the patients whose page is measured. */
const pageVisits = 50;

/** Rows from the seeded database, read beside the running server (SQLite in WAL mode allows it). */
async function select<T>(fixture: Fixture, text: string): Promise<T[]> {
  if (fixture.sqliteFile !== undefined) {
    const db = new DatabaseSync(fixture.sqliteFile, { readOnly: true });
    try {
      return db.prepare(text).all() as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: fixture.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

function latencyRows(
  label: string,
  samples: readonly number[],
  baseline: readonly number[],
  load: string,
): Row[] {
  return [0.5, 0.95].map((fraction) => ({
    measure: `${label} p${fraction * 100}`,
    figure: percentile(samples, fraction),
    baseline: percentile(baseline, fraction),
    unit: 'ms',
    load,
  }));
}

const each = <T>(items: readonly T[], round: number): T => items[round % items.length] as T;

/** A process's CPU time so far (user and system), from /proc; Linux counts it in 1/100 s. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

requireTool('wrk', 'wrk');
const options = parseBenchOptions();

await forEachEngine(options, async (engine, fixtures) => {
  const fixture = await seededFixture(engine, options.assessments, {
    patients: options.patients,
    keep: options.keep,
  });
  fixtures.push(fixture);
  const scale = `${options.assessments.toLocaleString('en')} assessments over ${options.patients.toLocaleString('en')} patients`;

  const people = await select<{ id: string; number: string; name: string }>(
    fixture,
    `select id, number, name from patient_records where deleted_at is null and name is not null
     order by random() limit ${samplesPerQuery}`,
  );
  // Those closest to 50 live assessments (exactly 50 at a million over 300,000).
  const withVisits = await select<{ id: string; n: number }>(
    fixture,
    `select patient_record_id as id, count(*) as n from assessments
     where patient_record_id is not null and deleted_at is null
     group by patient_record_id order by abs(count(*) - ${pageVisits}), patient_record_id
     limit ${samplesPerQuery}`,
  );
  const visitCounts = [...new Set(withVisits.map(({ n }) => Number(n)))].sort((a, b) => a - b);
  const linkable = await select<{ id: string }>(
    fixture,
    'select id from patient_records where deleted_at is null order by random() limit 1000',
  );
  if (people.length === 0 || withVisits.length === 0) {
    throw new Error('No patients were seeded');
  }

  const server = await startServer(fixture);
  try {
    const cookie = await signIn(server, await createBenchUser(fixture));
    const q = (text: string) => `/api/patients?q=${encodeURIComponent(text)}`;
    const words = (name: string) => name.split(' ');
    const searches: [string, string[]][] = [
      // As typed from a card: 'MRN-' and the first five digits (a few records at 300,000).
      ['number prefix', people.map((person) => q(person.number.slice(0, 9)))],
      ['surname', people.map((person) => q(words(person.name).at(-1) ?? ''))],
      [
        'surname + first-name prefix',
        people.map((person) =>
          q(`${words(person.name).at(-1) ?? ''} ${(words(person.name)[0] ?? '').slice(0, 3)}`),
        ),
      ],
    ];
    const totals = await Promise.all(
      searches.map(async ([, paths]) => {
        const response = await fetch(`${server.url}${paths[0] ?? ''}`, { headers: { cookie } });
        return ((await response.json()) as { total: number }).total;
      }),
    );

    // 1 and 2 with their baselines.
    const pages = withVisits.map(({ id }) => [
      `/api/patients/${id}`,
      `/api/patients/${id}/assessments`,
    ]);
    // Round-robin over the kinds of request, so that load from other processes falls on every
    // one alike; each kind takes its samples in turn, one a round. A page's two requests are
    // timed as one, one after the other.
    const [samples, load] = await loadDuring(async () => {
      // Each kind: its samples; each sample: the paths requested one after the other.
      const kinds: string[][][] = [
        [['/api/session']],
        [['/api/session', '/api/session']],
        ...searches.map(([, paths]) => paths.map((path) => [path])),
        pages,
      ];
      const timed = kinds.map((): number[] => []);
      for (let round = 0; round < warmUpRounds + requestsPerQuery; round++) {
        for (const [index, kind] of kinds.entries()) {
          let ms = 0;
          for (const path of each(kind, round))
            ms += await timedGet(`${server.url}${path}`, cookie);
          if (round >= warmUpRounds) timed[index]?.push(ms);
        }
      }
      return timed;
    });
    const [session = [], twoSessions = [], ...rest] = samples;
    const page = rest.at(-1) ?? [];
    printTable(`Patients on ${engine}: ${scale}, ${session.length} requests each, p50 / p95`, [
      ...searches.flatMap(([label], index) =>
        latencyRows(
          `search, ${label} (${totals[index]?.toLocaleString('en')} found)`,
          rest[index] ?? [],
          session,
          load,
        ),
      ),
      ...latencyRows(
        `patient page, ${visitCounts.join(' or ')} assessments (2 requests)`,
        page,
        twoSessions,
        load,
      ),
    ]);

    // 3: anonymous and linked saves, ABBA.
    const body = assessmentBody();
    const linked = linkable.map(({ id }) => ({ ...body, patientId: id }));
    const url = `${server.url}/api/assessments`;
    const run = (bodies: readonly unknown[], seconds: number) =>
      loadDuring(async () => {
        const before = cpuMs(server.pid);
        const result = await postLoad({
          url,
          cookie,
          body,
          bodies,
          connections: options.clients,
          seconds,
        });
        return { ...result, serverCpuMsPerSave: (cpuMs(server.pid) - before) / result.requests };
      });
    await run([body], 2); // warms the server's code up
    const runs: {
      linked: boolean;
      result: LoadResult & { serverCpuMsPerSave: number };
      load: string;
    }[] = [];
    for (const isLinked of [false, true, true, false]) {
      const [result, runLoad] = await run(isLinked ? linked : [body], options.seconds);
      runs.push({ linked: isLinked, result, load: runLoad });
    }
    const mean = (
      isLinked: boolean,
      read: (result: LoadResult & { serverCpuMsPerSave: number }) => number,
    ) => {
      const picked = runs.filter((r) => r.linked === isLinked);
      return picked.reduce((sum, r) => sum + read(r.result), 0) / picked.length;
    };
    const loads = runs.map((r) => r.load).join('; ');
    const failures = runs.reduce((sum, r) => sum + r.result.failures, 0);
    const saves = runs.reduce((sum, r) => sum + r.result.requests, 0);
    printTable(
      `Save naming a patient on ${engine}: ${scale}, ${options.clients} clients, 2 × ${options.seconds} s each (anonymous, linked, linked, anonymous), ${saves.toLocaleString('en')} saves (${failures} failed)`,
      [
        {
          measure: 'saves a second',
          figure: mean(true, (r) => r.requestsPerSecond),
          baseline: mean(false, (r) => r.requestsPerSecond),
          unit: '/s',
          ratioLabel: 'x anonymous',
          load: loads,
        },
        {
          measure: 'p50 latency',
          figure: mean(true, (r) => r.p50Ms),
          baseline: mean(false, (r) => r.p50Ms),
          unit: 'ms',
          ratioLabel: 'x anonymous',
          load: loads,
        },
        {
          // What the load moves least: the server's own CPU time (user and system).
          measure: 'server CPU per save',
          figure: mean(true, (r) => r.serverCpuMsPerSave),
          baseline: mean(false, (r) => r.serverCpuMsPerSave),
          unit: 'ms',
          ratioLabel: 'x anonymous',
          load: loads,
        },
        {
          measure: 'p99 latency',
          figure: mean(true, (r) => r.p99Ms),
          baseline: mean(false, (r) => r.p99Ms),
          unit: 'ms',
          ratioLabel: 'x anonymous',
          load: loads,
        },
      ],
    );
  } finally {
    await server.stop();
  }
});
