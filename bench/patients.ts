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
 * linked, linked, anonymous), so that a change in load falls on both, each run after 2 s of its
 * own kind. With `--before COMMIT`, also the saves of that earlier build (the issue's "today's":
 * the build before patient records, 4ad8eda), exported into the benchmarks' cache and run on a
 * database of its own seeded with as many assessments, first and last (before, anonymous,
 * linked, linked, anonymous, before).
 *
 * The 1-minute load average before and after each measurement is printed beside its figure.
 * The saves are written into the seeded database (a few thousand among the million).
 *
 *   node bench/patients.ts [--engine sqlite|postgres|both] [--assessments 100000]
 *     [--patients 30000] [--clients 16] [--seconds 10] [--keep] [--before COMMIT]
 */
import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import {
  exportedBuild,
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
  type RunningServer,
  timedGet,
} from './harness.ts';
import { assessmentBody, postLoad, requireTool, type LoadResult } from './load.ts';

/** Timed requests per query (after the warm-up), each query's samples in turn. */
const requestsPerQuery = 200;
const warmUpRounds = 3;
/** The saves of each kind just before each timed run of that kind. */
const warmUpSeconds = 2;
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

  // The earlier build (--before), on a database of its own with as many assessments.
  const beforeFixture =
    options.before === undefined
      ? undefined
      : await seededFixture(engine, options.assessments, {
          label: `before-${options.before}`,
          keep: options.keep,
          root: await exportedBuild(options.before),
        });
  if (beforeFixture !== undefined) fixtures.push(beforeFixture);

  const server = await startServer(fixture);
  let before: { server: RunningServer; cookie: string } | undefined;
  try {
    const cookie = await signIn(server, await createBenchUser(fixture));
    if (beforeFixture !== undefined) {
      const beforeServer = await startServer(beforeFixture);
      before = {
        server: beforeServer,
        cookie: await signIn(beforeServer, await createBenchUser(beforeFixture)),
      };
    }
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

    // 3: anonymous and linked saves, ABBA; with --before, the earlier build's around them.
    const body = assessmentBody();
    const linked = linkable.map(({ id }) => ({ ...body, patientId: id }));
    type Kind = 'anonymous' | 'linked' | 'before';
    const targets: Partial<
      Record<Kind, { url: string; cookie: string; pid: number; bodies: unknown[] }>
    > = {
      anonymous: { url: `${server.url}/api/assessments`, cookie, pid: server.pid, bodies: [body] },
      linked: { url: `${server.url}/api/assessments`, cookie, pid: server.pid, bodies: linked },
      ...(before === undefined
        ? {}
        : {
            before: {
              url: `${before.server.url}/api/assessments`,
              cookie: before.cookie,
              pid: before.server.pid,
              bodies: [body],
            },
          }),
    };
    const target = (kind: Kind) => {
      const found = targets[kind];
      if (found === undefined) throw new Error(`No server for ${kind} saves`);
      return found;
    };
    const saveLoad = (kind: Kind, seconds: number) =>
      postLoad({ ...target(kind), body, connections: options.clients, seconds });
    const run = (kind: Kind) =>
      loadDuring(async () => {
        const { pid } = target(kind);
        const cpuBefore = cpuMs(pid);
        const result = await saveLoad(kind, options.seconds);
        return { ...result, serverCpuMsPerSave: (cpuMs(pid) - cpuBefore) / result.requests };
      });
    // Every sampled patient saved once first, so that the timed runs find their pages in the
    // caches, as the anonymous saves find theirs: otherwise the first run reads them from the disk
    // (docs/BENCHMARKS.md 10), and how many a 2 s warm-up reaches depends on the disk.
    for (let next = 0; next < linked.length; next += options.clients) {
      await Promise.all(
        linked.slice(next, next + options.clients).map(async (patientBody) => {
          const response = await fetch(`${server.url}/api/assessments`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie },
            body: JSON.stringify(patientBody),
          });
          await response.arrayBuffer();
          if (response.status !== 201)
            throw new Error(`A warm-up save answered ${response.status}`);
        }),
      );
    }
    const order: Kind[] =
      before === undefined
        ? ['anonymous', 'linked', 'linked', 'anonymous']
        : ['before', 'anonymous', 'linked', 'linked', 'anonymous', 'before'];
    const runs: {
      kind: Kind;
      result: LoadResult & { serverCpuMsPerSave: number };
      load: string;
    }[] = [];
    for (const kind of order) {
      // Each run after a short one of its own kind: its pages are then in the caches whichever
      // ran before (the build before keeps a database of its own).
      await saveLoad(kind, warmUpSeconds);
      const [result, runLoad] = await run(kind);
      runs.push({ kind, result, load: runLoad });
    }
    const mean = (
      kind: Kind,
      read: (result: LoadResult & { serverCpuMsPerSave: number }) => number,
    ) => {
      const picked = runs.filter((r) => r.kind === kind);
      return picked.reduce((sum, r) => sum + read(r.result), 0) / picked.length;
    };
    const loads = runs.map((r) => r.load).join('; ');
    const failures = runs.reduce((sum, r) => sum + r.result.failures, 0);
    const saves = runs.reduce((sum, r) => sum + r.result.requests, 0);
    const against = (
      measure: string,
      read: (result: LoadResult & { serverCpuMsPerSave: number }) => number,
      unit: string,
    ): Row[] => [
      {
        measure,
        figure: mean('linked', read),
        baseline: mean('anonymous', read),
        unit,
        ratioLabel: 'x anonymous',
        load: loads,
      },
      ...(before === undefined
        ? []
        : [
            {
              measure: `${measure}, naming a patient`,
              figure: mean('linked', read),
              baseline: mean('before', read),
              unit,
              ratioLabel: `x the build before (${options.before})`,
              load: loads,
            },
            {
              measure: `${measure}, naming none`,
              figure: mean('anonymous', read),
              baseline: mean('before', read),
              unit,
              ratioLabel: `x the build before (${options.before})`,
              load: loads,
            },
          ]),
    ];
    printTable(
      `Save naming a patient on ${engine}: ${scale}, ${options.clients} clients, ${order.length} × ${options.seconds} s (${order.join(', ')}), each after ${warmUpSeconds} s of its kind, ${saves.toLocaleString('en')} saves (${failures} failed)`,
      [
        ...against('saves a second', (r) => r.requestsPerSecond, '/s'),
        ...against('p50 latency', (r) => r.p50Ms, 'ms'),
        // What the load moves least: the server's own CPU time (user and system).
        ...against('server CPU per save', (r) => r.serverCpuMsPerSave, 'ms'),
        ...against('p99 latency', (r) => r.p99Ms, 'ms'),
      ],
    );
  } finally {
    await server.stop();
    await before?.server.stop();
  }
});
