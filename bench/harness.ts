/**
 * What the benchmarks share: options, seeded databases, a server in a child process with a
 * signed-in user, percentiles and the figure / baseline / ratio table.
 *
 * Every figure is printed beside a baseline measured in the same run, because the machine the
 * benchmarks run on is shared: absolute figures move with the load, ratios much less.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';

export type Engine = 'sqlite' | 'postgres';

export const repoRoot = path.resolve(import.meta.dirname, '..');
/** The Node that runs the benchmark (the pinned Node 24), so children can run .ts too. */
export const nodeBinary = process.execPath;
/** Seeded databases, dumps and builds; reused between runs while `--keep` leaves them. */
export const benchDir = process.env.BENCH_DIR ?? path.join(os.tmpdir(), 'triage-bench');
/** A PostgreSQL database to connect to while creating and dropping the benchmark databases. */
export const postgresAdminUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchOptions {
  engines: Engine[];
  assessments: number;
  /** Patient records the patients benchmark seeds the assessments over (3 in 10 by default). */
  patients: number;
  /** Leave seeded databases for the next benchmark (npm run bench drops them at the end). */
  keep: boolean;
  /** Length of each timed load run. */
  seconds: number;
  clients: number;
}

export function parseBenchOptions(defaults: { assessments?: number } = {}): BenchOptions {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'both' },
      assessments: { type: 'string', default: String(defaults.assessments ?? 100_000) },
      patients: { type: 'string' },
      keep: { type: 'boolean', default: false },
      seconds: { type: 'string', default: '10' },
      clients: { type: 'string', default: '16' },
    },
  });
  if (!['sqlite', 'postgres', 'both'].includes(values.engine)) {
    throw new Error(`--engine must be sqlite, postgres or both, not ${values.engine}`);
  }
  const engines: Engine[] =
    values.engine === 'both' ? ['sqlite', 'postgres'] : [values.engine as Engine];
  const whole = (name: string, text: string, minimum: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum) {
      throw new Error(`--${name} must be a whole number of at least ${minimum}`);
    }
    return value;
  };
  const assessments = whole('assessments', values.assessments, 1);
  const patients =
    values.patients === undefined
      ? Math.max(1, Math.round(assessments * 0.3))
      : whole('patients', values.patients, 1);
  if (patients > assessments) throw new Error('--patients must be at most --assessments');
  return {
    engines,
    assessments,
    patients,
    keep: values.keep,
    seconds: whole('seconds', values.seconds, 1),
    clients: whole('clients', values.clients, 1),
  };
}

/** Where a server or a driver finds the data: the environment the `triage` command reads. */
export interface Fixture {
  engine: Engine;
  env: { DATA_DIR: string } | { DATABASE_URL: string };
  /** The SQLite file, for the driver baselines. */
  sqliteFile?: string;
  databaseUrl?: string;
  drop(): Promise<void>;
}

function databaseUrlFor(name: string): string {
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdminClient<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function postgresDatabaseExists(name: string): Promise<boolean> {
  return withAdminClient(async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    return found.rowCount === 1;
  });
}

async function dropPostgresDatabase(name: string): Promise<void> {
  await withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`));
}

/** Runs the `triage` command with the fixture's environment; rejects on a non-zero exit. */
export async function runTriage(
  env: Record<string, string>,
  args: string[],
  stdin = '',
): Promise<string> {
  const child = spawn(nodeBinary, ['src/cli/main.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(stdin);
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`triage ${args.join(' ')} exited with ${code}`);
  return output;
}

function seededSqliteDir(assessments: number, patients?: number): string {
  return path.join(
    benchDir,
    `sqlite-${assessments}${patients === undefined ? '' : `-patients-${patients}`}`,
  );
}

function seededPostgresName(assessments: number, patients?: number): string {
  return `triage_bench_${assessments}${patients === undefined ? '' : `_patients_${patients}`}`;
}

/** Drops a kept seeded database, without seeding one that is not there. */
export async function dropSeeded(
  engine: Engine,
  assessments: number,
  patients?: number,
): Promise<void> {
  if (engine === 'sqlite')
    fs.rmSync(seededSqliteDir(assessments, patients), { recursive: true, force: true });
  else await dropPostgresDatabase(seededPostgresName(assessments, patients));
}

/**
 * A database holding `assessments` seeded records (over `patients` patient records when given),
 * made with `triage seed` and reused when a kept one exists. A seed that did not finish is never
 * reused: SQLite's is marked done by a file, PostgreSQL's is renamed to its final name only when
 * done.
 */
export async function seededFixture(
  engine: Engine,
  assessments: number,
  patients?: number,
): Promise<Fixture> {
  const started = performance.now();
  const seedArgs = [
    'seed',
    '--assessments',
    String(assessments),
    ...(patients === undefined ? [] : ['--patients', String(patients)]),
  ];
  const report = () =>
    console.log(
      `Seeded ${assessments.toLocaleString('en')} assessments${patients === undefined ? '' : ` over ${patients.toLocaleString('en')} patients`} on ${engine} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  if (engine === 'sqlite') {
    const dataDir = seededSqliteDir(assessments, patients);
    const done = path.join(dataDir, 'seeded');
    if (!fs.existsSync(done)) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await runTriage({ DATA_DIR: dataDir }, seedArgs);
      fs.writeFileSync(done, '');
      report();
    }
    return {
      engine,
      env: { DATA_DIR: dataDir },
      sqliteFile: path.join(dataDir, 'triage.sqlite'),
      drop: () => dropSeeded(engine, assessments, patients),
    };
  }
  const name = seededPostgresName(assessments, patients);
  if (!(await postgresDatabaseExists(name))) {
    const loading = `${name}_loading`;
    await dropPostgresDatabase(loading);
    await withAdminClient((client) => client.query(`create database ${loading}`));
    await runTriage({ DATABASE_URL: databaseUrlFor(loading) }, seedArgs);
    await withAdminClient((client) => client.query(`alter database ${loading} rename to ${name}`));
    report();
  }
  const databaseUrl = databaseUrlFor(name);
  return {
    engine,
    env: { DATABASE_URL: databaseUrl },
    databaseUrl,
    drop: () => dropSeeded(engine, assessments, patients),
  };
}

/** A new, empty database (migrated by the first server to start on it), dropped after use. */
export async function emptyFixture(engine: Engine, label: string): Promise<Fixture> {
  if (engine === 'sqlite') {
    const dataDir = path.join(benchDir, `sqlite-empty-${label}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    return {
      engine,
      env: { DATA_DIR: dataDir },
      sqliteFile: path.join(dataDir, 'triage.sqlite'),
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `triage_bench_empty_${label}`;
  await dropPostgresDatabase(name);
  await withAdminClient((client) => client.query(`create database ${name}`));
  const databaseUrl = databaseUrlFor(name);
  return {
    engine,
    env: { DATABASE_URL: databaseUrl },
    databaseUrl,
    drop: () => dropPostgresDatabase(name),
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
}

export interface RunningServer {
  url: string;
  pid: number;
  /** The server's peak resident memory so far (VmHWM), in bytes. */
  peakRssBytes(): number;
  stop(): Promise<void>;
}

/** Kilobytes from a /proc/<pid>/status line such as `VmHWM:   123456 kB`. */
function procStatusBytes(pid: number, field: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) * 1024;
}

/**
 * The Node flags `npm start` gives the server (its heap settings, docs/BENCHMARKS.md 3),
 * read from package.json, so that the benchmarks measure the server as it runs.
 */
function startScriptNodeFlags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...words] = manifest.scripts.start.split(' ');
  if (command !== 'node') throw new Error('npm start no longer runs node; update the harness');
  const script = words.findIndex((word) => !word.startsWith('--'));
  return words.slice(0, script);
}

/**
 * `triage serve` on a free loopback port, ready when /api/health answers, serving the given
 * folder of a built app, or dist/web when there is one.
 */
export async function startServer(
  fixture: Fixture,
  options: { webRoot?: string } = {},
): Promise<RunningServer> {
  const port = await freePort();
  // As `npm start` runs it; then any flags NODE_OPTIONS refuses (a CPU profile, say).
  const nodeFlags = [
    ...startScriptNodeFlags(),
    ...(process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  ];
  const child: ChildProcess = spawn(nodeBinary, [...nodeFlags, 'src/cli/main.ts', 'serve'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...fixture.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The server refuses a WEB_ROOT without a built app; unset, it serves dist/web if built.
      ...(options.webRoot === undefined ? {} : { WEB_ROOT: options.webRoot }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('The server did not start');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A benchmark that fails or is interrupted leaves no server behind.
  process.once('exit', () => child.kill('SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error('The server did not answer /api/health within 120 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid,
    peakRssBytes: () => procStatusBytes(pid, 'VmHWM'),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface BenchUser {
  username: string;
  password: string;
}

/** An administrator (who may save, read and export everything), made with `triage user add`. */
export async function createBenchUser(fixture: Fixture): Promise<BenchUser> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const user = { username: `bench-${suffix}`, password: `bench-passphrase-${suffix}-long` };
  await runTriage(
    fixture.env,
    ['user', 'add', '--username', user.username, '--role', 'admin'],
    `${user.password}\n`,
  );
  return user;
}

/** Signs in and returns the Cookie header later requests carry. */
export async function signIn(server: RunningServer, user: BenchUser): Promise<string> {
  const response = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (!response.ok) throw new Error(`Sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('triage_session='));
  if (cookie === undefined) throw new Error('No session cookie was set');
  return cookie.split(';')[0] ?? '';
}

/** The value below which `fraction` of the samples lie (nearest rank). */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** A signed-in GET, read to its end; its duration in milliseconds. */
export async function timedGet(url: string, cookie: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return performance.now() - started;
}

/**
 * p50 and p95 rows of each query's samples against the first query's, which is the baseline
 * (`samples[i]` are the samples of `labels[i - 1]`).
 */
export function latencyRowsAgainstFirst(
  labels: readonly string[],
  samples: readonly (readonly number[])[],
): Row[] {
  const baseline = samples[0] ?? [];
  return labels.flatMap((label, index) => {
    const ms = samples[index + 1] ?? [];
    return (
      [
        ['p50', 0.5],
        ['p95', 0.95],
      ] as const
    ).map(([name, fraction]) => ({
      measure: `${label} ${name}`,
      figure: percentile(ms, fraction),
      baseline: percentile(baseline, fraction),
      unit: 'ms',
    }));
  });
}

export interface Row {
  measure: string;
  figure: number;
  baseline: number;
  unit: string;
  /** How the ratio reads, e.g. 'x baseline' or 'x ripgrep'. */
  ratioLabel?: string;
  /** The 1-minute load average while the figure was measured (see `loadDuring`). */
  load?: string;
}

/** The 1-minute load average now. */
export function loadNow(): number {
  return os.loadavg()[0] ?? Number.NaN;
}

/** Runs `measure` and says what the 1-minute load average was before and after it. */
export async function loadDuring<T>(measure: () => Promise<T>): Promise<[T, string]> {
  const before = loadNow();
  const result = await measure();
  return [result, `${before.toFixed(1)} → ${loadNow().toFixed(1)}`];
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** Prints the rows as a Markdown table, so that a run can be pasted into docs/BENCHMARKS.md. */
export function printTable(title: string, rows: readonly Row[]): void {
  const withLoad = rows.some((row) => row.load !== undefined);
  console.log(`\n### ${title}\n`);
  console.log(`| measure | figure | baseline | ratio |${withLoad ? ' load |' : ''}`);
  console.log(`| --- | ---: | ---: | ---: |${withLoad ? ' ---: |' : ''}`);
  for (const row of rows) {
    const ratio = row.figure / row.baseline;
    console.log(
      `| ${row.measure} | ${formatNumber(row.figure)} ${row.unit} | ${formatNumber(row.baseline)} ${row.unit} | ${formatNumber(ratio)} ${row.ratioLabel ?? 'x baseline'} |${withLoad ? ` ${row.load ?? ''} |` : ''}`,
    );
  }
}

export function describeMachine(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}, Node ${process.version}`;
}

/** Runs `body` for each engine, dropping what it made unless `--keep`. */
export async function forEachEngine(
  options: BenchOptions,
  body: (engine: Engine, fixtures: Fixture[]) => Promise<void>,
): Promise<void> {
  console.log(`Machine: ${describeMachine()}`);
  for (const engine of options.engines) {
    const fixtures: Fixture[] = [];
    try {
      await body(engine, fixtures);
    } finally {
      if (!options.keep) for (const fixture of fixtures) await fixture.drop();
    }
  }
}
