/**
 * Scale (PostgreSQL only): 1, 2 and 4 `triage serve` instances on one database, the clients
 * (wrk, anonymous saves) shared among them, at 16, 64 and 256 clients; each run prints the saves a
 * second, the p99 latency and what pg_stat_activity showed of the servers' connections, sampled
 * every 50 ms: the share waiting on a lock (wait_event_type Lock), the share `idle in
 * transaction` (the database waiting for Node to send a transaction's next statement, its locks
 * held), and the share waiting on the write-ahead log (IO or LWLock waits on WAL). The shares are
 * of the sampled connections that were in a transaction or running a statement (not idle in the
 * pool). The driver baseline (bench/driver-baseline.ts) runs at 16 clients in the same run. The
 * 1-minute load average is printed beside every figure: the machine may be shared.
 *
 * With `--before COMMIT`, the same runs of that earlier build first (on a database of its own),
 * exported with `git archive` and run on this checkout's dependencies (the commit must have the
 * same package-lock.json).
 *
 *   node bench/scale.ts [--seconds 5] [--instances 1,2,4] [--clients 16,64,256] [--before COMMIT]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { PatientInput } from '../src/server/services/assessment-records.ts';
import { driverSavePostgres, authorOf } from './driver-baseline.ts';
import {
  createBenchUser,
  describeMachine,
  emptyFixture,
  loadNow,
  percentile,
  repoRoot,
  runDir,
  signIn,
  startServer,
  type Fixture,
  type RunningServer,
} from './harness.ts';
import { assessmentBody, postLoad, requireTool } from './load.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    instances: { type: 'string', default: '1,2,4' },
    clients: { type: 'string', default: '16,64,256' },
    before: { type: 'string' },
  },
});
const wholeNumbers = (name: string, text: string) =>
  text.split(',').map((word) => {
    const value = Number(word);
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`--${name} must list whole numbers of at least 1, not ${text}`);
    }
    return value;
  });
const seconds = wholeNumbers('seconds', values.seconds)[0] ?? 5;
const instanceCounts = wholeNumbers('instances', values.instances);
const clientCounts = wholeNumbers('clients', values.clients);
const mostInstances = Math.max(...instanceCounts);

/** What the sampler saw of the servers' connections during one run. */
interface ActivityShares {
  samples: number;
  /** Connections in a transaction or running a statement, summed over the samples. */
  busy: number;
  lock: number;
  idleInTransaction: number;
  wal: number;
}

/** Samples pg_stat_activity every 50 ms for the servers' connections to `database` until stopped. */
function sampleActivity(databaseUrl: string, database: string): () => Promise<ActivityShares> {
  const shares: ActivityShares = { samples: 0, busy: 0, lock: 0, idleInTransaction: 0, wal: 0 };
  const client = new pg.Client({ connectionString: databaseUrl });
  let stopped = false;
  const sampling = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{
        state: string | null;
        wait_event_type: string | null;
        wait_event: string | null;
      }>(
        `select state, wait_event_type, wait_event from pg_stat_activity
        where datname = $1 and application_name = 'triage' and state <> 'idle'`,
        [database],
      );
      shares.samples++;
      for (const row of rows) {
        shares.busy++;
        if (row.wait_event_type === 'Lock') shares.lock++;
        if (row.state?.startsWith('idle in transaction') === true) shares.idleInTransaction++;
        if (/^WAL/.test(row.wait_event ?? '')) shares.wal++;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.end();
  })();
  return async () => {
    stopped = true;
    await sampling;
    return shares;
  };
}

/** CPU seconds (user and system) a process has used so far; 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends of the servers' connections to `database` now. */
async function backendPids(client: pg.Client, database: string): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and application_name = 'triage'`,
    [database],
  );
  return rows.map((row) => row.pid);
}

interface RunFigures {
  instances: number;
  clients: number;
  perSecond: number;
  p99Ms: number;
  failures: number;
  activity: ActivityShares;
  /** CPU milliseconds a save took in the servers, and in the database's backends. */
  appCpuMs: number;
  databaseCpuMs: number;
  load: string;
}

const body = assessmentBody();

/** Saves from `clients` connections shared among the first `instances` servers. */
async function measure(
  fixture: Fixture,
  servers: RunningServer[],
  cookie: string,
  instances: number,
  clients: number,
): Promise<RunFigures> {
  const shares = servers.slice(0, instances).map((server, index) => ({
    server,
    connections: Math.floor(clients / instances) + (index < clients % instances ? 1 : 0),
  }));
  const load = (runSeconds: number) =>
    Promise.all(
      shares.map(({ server, connections }) =>
        postLoad({
          url: `${server.url}/api/assessments`,
          cookie,
          body,
          connections,
          seconds: runSeconds,
        }),
      ),
    );
  await load(1);
  const database = new URL(fixture.databaseUrl ?? '').pathname.slice(1);
  const admin = new pg.Client({ connectionString: fixture.databaseUrl });
  await admin.connect();
  const appPids = shares.map(({ server }) => server.pid);
  const backends = await backendPids(admin, database);
  const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const appBefore = cpuOf(appPids);
  const databaseBefore = new Map(backends.map((pid) => [pid, cpuSeconds(pid)]));
  const loadBefore = loadNow();
  const stop = sampleActivity(fixture.databaseUrl ?? '', database);
  const results = await load(seconds);
  const activity = await stop();
  const appCpu = cpuOf(appPids) - appBefore;
  // Backends opened during the run count from zero.
  const databaseCpu = (await backendPids(admin, database)).reduce(
    (sum, pid) => sum + cpuSeconds(pid) - (databaseBefore.get(pid) ?? 0),
    0,
  );
  await admin.end();
  const saves = results.reduce((sum, result) => sum + result.requests, 0);
  return {
    appCpuMs: (1000 * appCpu) / Math.max(1, saves),
    databaseCpuMs: (1000 * databaseCpu) / Math.max(1, saves),
    instances,
    clients,
    perSecond: results.reduce((sum, result) => sum + result.requestsPerSecond, 0),
    p99Ms: percentile(
      results.map((result) => result.p99Ms),
      1,
    ),
    failures: results.reduce((sum, result) => sum + result.failures, 0),
    activity,
    load: `${loadBefore.toFixed(1)} → ${loadNow().toFixed(1)}`,
  };
}

/** Every run of one build on a fresh database, then the driver baseline on it at 16 clients. */
async function runBuild(label: string, root: string | undefined): Promise<RunFigures[]> {
  const fixture = { ...(await emptyFixture('postgres', `scale_${label}`)), root };
  const servers: RunningServer[] = [];
  try {
    for (let i = 0; i < mostInstances; i++) servers.push(await startServer(fixture));
    const cookie = await signIn(servers[0] as RunningServer, await createBenchUser(fixture));
    const figures: RunFigures[] = [];
    for (const instances of instanceCounts) {
      for (const clients of clientCounts) {
        figures.push(await measure(fixture, servers, cookie, instances, clients));
      }
    }
    return figures;
  } finally {
    for (const server of servers) await server.stop();
    await fixture.drop();
  }
}

/** `commit` exported into this run's folder, on this checkout's dependencies. */
function exportedOnSharedModules(commit: string): string {
  const lockOf = (at: string) =>
    execFileSync('git', ['show', `${at}:package-lock.json`], { cwd: repoRoot, encoding: 'utf8' });
  if (lockOf(commit) !== fs.readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) {
    throw new Error(`--before ${commit} has other dependencies than this checkout`);
  }
  const dir = path.join(runDir(), `build-${commit}`);
  fs.mkdirSync(dir, { recursive: true });
  const archive = path.join(runDir(), `build-${commit}.tar`);
  execFileSync('git', ['archive', '--output', archive, commit], { cwd: repoRoot });
  execFileSync('tar', ['-xf', archive, '-C', dir]);
  fs.symlinkSync(
    fs.realpathSync(path.join(repoRoot, 'node_modules')),
    path.join(dir, 'node_modules'),
  );
  return dir;
}

function format(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : String(value);
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0 %' : `${((100 * part) / whole).toFixed(1)} %`;
}

function printRuns(title: string, figures: RunFigures[]): void {
  console.log(`\n### ${title}\n`);
  console.log(
    '| instances | clients | saves/s | p99 | failed | lock waits | idle in transaction | WAL waits | busy connections (mean) | app CPU a save | database CPU a save | load |',
  );
  console.log(
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const run of figures) {
    const { activity } = run;
    console.log(
      `| ${run.instances} | ${run.clients} | ${format(run.perSecond)} | ${format(run.p99Ms, 1)} ms | ${run.failures} | ${percent(activity.lock, activity.busy)} | ${percent(activity.idleInTransaction, activity.busy)} | ${percent(activity.wal, activity.busy)} | ${format(activity.busy / Math.max(1, activity.samples), 1)} | ${format(run.appCpuMs, 2)} ms | ${format(run.databaseCpuMs, 2)} ms | ${run.load} |`,
    );
  }
}

function printTargets(figures: RunFigures[], driverPerSecond: number, driverLoad: string): void {
  const at = (instances: number, clients: number) =>
    figures.find((run) => run.instances === instances && run.clients === clients)?.perSecond ??
    Number.NaN;
  const lockShare = Math.max(
    ...figures.map((run) => run.activity.lock / Math.max(1, run.activity.busy)),
  );
  console.log('\n### Targets\n');
  console.log('| target | figure | met |');
  console.log('| --- | ---: | --- |');
  const row = (target: string, figure: number, met: boolean, unit = 'x') =>
    console.log(`| ${target} | ${format(figure, 2)}${unit} | ${met ? 'yes' : 'no'} |`);
  const alone16 = at(1, 16);
  row(
    `save >= 0.9x the driver at 16 clients (driver ${format(driverPerSecond)}/s, load ${driverLoad})`,
    alone16 / driverPerSecond,
    alone16 / driverPerSecond >= 0.9,
  );
  row('64 clients >= 16 clients (one instance)', at(1, 64) / alone16, at(1, 64) >= alone16);
  row(
    'lock waits < 5 % of sampled connections (worst run)',
    100 * lockShare,
    lockShare < 0.05,
    ' %',
  );
  for (const clients of clientCounts) {
    row(
      `2 instances >= 1.0x one, ${clients} clients`,
      at(2, clients) / at(1, clients),
      at(2, clients) >= at(1, clients),
    );
  }
}

requireTool('wrk', 'wrk');
console.log(`Machine: ${describeMachine()}`);
console.log(
  `${seconds} s a run after 1 s of warm-up; instances ${instanceCounts.join(', ')}; clients ${clientCounts.join(', ')}`,
);
if (values.before !== undefined) {
  const before = await runBuild('before', exportedOnSharedModules(values.before));
  printRuns(`The build ${values.before} (before)`, before);
}
const figures = await runBuild('now', undefined);
printRuns('This build', figures);

// The driver baseline at 16 clients, in the same run, on a fresh database.
const driverFixture = await emptyFixture('postgres', 'scale_driver');
try {
  const server = await startServer(driverFixture);
  const user = await createBenchUser(driverFixture);
  await server.stop();
  const input: PatientInput = {
    demographics: body.demographics ?? {},
    riskFactors: body.riskFactors ?? {},
    symptoms: body.symptoms ?? {},
    management: body.management ?? {},
  };
  const loadBefore = loadNow();
  const driver = await driverSavePostgres(
    driverFixture.databaseUrl ?? '',
    input,
    body.notes ?? null,
    await authorOf(driverFixture, user.username),
    seconds,
    16,
  );
  const driverLoad = `${loadBefore.toFixed(1)} → ${loadNow().toFixed(1)}`;
  printTargets(figures, driver.perSecond, driverLoad);
} finally {
  await driverFixture.drop();
}
