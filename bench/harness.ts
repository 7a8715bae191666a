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
/**
 * The benchmarks' data folder: the seeded databases kept with `--keep` (the cache, one folder
 * per size, which later runs reuse), and each run's working folder (docs/BENCHMARKS.md).
 */
const benchDir = process.env.BENCH_DIR ?? path.join(os.tmpdir(), 'triage-bench');

/**
 * This run's working folder, `<benchDir>/run-<pid>-<time>`: the databases it seeds without
 * `--keep`, its empty databases, notes, load scripts and builds, so that no other run's clean-up
 * reaches them. `npm run bench` hands its folder to its scripts (BENCH_RUN_DIR), so that they
 * share one seed; only the run that made the folder removes it.
 */
const inheritedRunDir = process.env.BENCH_RUN_DIR;
const runDirPath =
  inheritedRunDir ??
  path.join(
    benchDir,
    `run-${process.pid}-${new Date().toISOString().replaceAll(/[-:]|\.\d+/g, '')}`,
  );
const ownsRunDir = inheritedRunDir === undefined;
/** Set from `--keep`: the run's folder then stays after it, unless nothing is left in it. */
let keepRunDir = false;
let runDirMade = false;

/**
 * The run's working folder, made on first use; when the process exits, the run that made it
 * removes it, unless `--keep` (then only if it is empty: what was kept went to the cache).
 */
export function runDir(): string {
  if (!runDirMade) {
    fs.mkdirSync(runDirPath, { recursive: true });
    runDirMade = true;
    if (ownsRunDir) process.once('exit', removeRunDir);
  }
  return runDirPath;
}

function removeRunDir(): void {
  if (!keepRunDir) {
    fs.rmSync(runDirPath, { recursive: true, force: true });
    return;
  }
  try {
    fs.rmdirSync(runDirPath);
  } catch {
    // Not empty: a database the cache could not take, or files a script left for a look.
  }
}

/**
 * Names this run's PostgreSQL databases (`triage_bench_run_<token>_…`) within PostgreSQL's 63
 * characters, the same in every script of one `npm run bench`.
 */
const runToken = crypto
  .createHash('sha256')
  .update(path.basename(runDirPath))
  .digest('hex')
  .slice(0, 10);
const runDatabasePrefix = `triage_bench_run_${runToken}_`;
/** A database this run is seeding; renamed when the seed is complete. */
const loadingDatabasePrefix = `triage_bench_load_${runToken}_`;

/** A PostgreSQL database to connect to while creating and dropping the benchmark databases. */
const postgresAdminUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchOptions {
  engines: Engine[];
  assessments: number;
  /** Patient records the patients benchmark seeds the assessments over (3 in 10 by default). */
  patients: number;
  /**
   * Keep what the run seeds in the cache for later runs (a seeded database found there is reused
   * either way, and never removed by a run), and leave the run's folder.
   */
  keep: boolean;
  /** Length of each timed load run. */
  seconds: number;
  clients: number;
  /**
   * A commit of an earlier build to measure against as well (the patients benchmark: the build
   * before patient records), exported and seeded beside this one.
   */
  before: string | undefined;
  /** Facilities the organisation-units benchmark spreads the seeded records over. */
  units: number;
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
      before: { type: 'string' },
      units: { type: 'string', default: '500' },
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
  keepRunDir = values.keep;
  return {
    engines,
    assessments,
    patients,
    keep: values.keep,
    seconds: whole('seconds', values.seconds, 1),
    clients: whole('clients', values.clients, 1),
    before: values.before,
    units: whole('units', values.units, 2),
  };
}

/** Where a server or a driver finds the data: the environment the `triage` command reads. */
export interface Fixture {
  engine: Engine;
  env: { DATA_DIR: string } | { DATABASE_URL: string };
  /** The SQLite file, for the driver baselines. */
  sqliteFile?: string;
  /** The build that seeded the database and serves it, when not this checkout (exportedBuild). */
  root?: string;
  databaseUrl?: string;
  /**
   * Removes the database if this run made it for itself; one kept in the cache, or shared by the
   * scripts of one `npm run bench` (whose run removes it at its end), is left.
   */
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
  root = repoRoot,
): Promise<string> {
  const child = spawn(nodeBinary, ['src/cli/main.ts', ...args], {
    cwd: root,
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

/** What names a seeded database: its size, and the benchmark's label when it has one of its own. */
function seedKey(assessments: number, patients?: number, label?: string, units?: number): string {
  return [
    label,
    String(assessments),
    patients === undefined ? undefined : `patients-${patients}`,
    units === undefined ? undefined : `units-${units}`,
  ]
    .filter((part) => part !== undefined)
    .join('-');
}

/** A PostgreSQL database name of a key ('1000000-patients-300000' -> '1000000_patients_300000'). */
function databaseKey(key: string): string {
  return key.replaceAll('-', '_');
}

/** Seeded SQLite folders hold this file once the seed is complete (as they always have). */
const SEEDED_MARKER = 'seeded';

function isSeededSqlite(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, SEEDED_MARKER));
}

function sqliteFixture(dataDir: string, drop: () => Promise<void>): Fixture {
  return {
    engine: 'sqlite',
    env: { DATA_DIR: dataDir },
    sqliteFile: path.join(dataDir, 'triage.sqlite'),
    drop,
  };
}

function postgresFixture(name: string, drop: () => Promise<void>): Fixture {
  const databaseUrl = databaseUrlFor(name);
  return { engine: 'postgres', env: { DATABASE_URL: databaseUrl }, databaseUrl, drop };
}

/** The drop of a database that is not this run's to remove. */
const leaveDatabase = async (): Promise<void> => {};

/** Removes what the run made for itself, unless the run was handed down (npm run bench's). */
function dropIfOwnRun(remove: () => Promise<void> | void): () => Promise<void> {
  return ownsRunDir ? async () => remove() : leaveDatabase;
}

/**
 * A database holding `assessments` seeded records (over `patients` patient records when given;
 * `label` gives a benchmark a database of its own), made with `triage seed`. One kept in the
 * cache is reused, and so is one the run seeded before. Otherwise it is seeded under a temporary
 * name and renamed when complete: into the cache with `keep`, else into the run's own names,
 * so that a seed that did not finish is never reused, and no other run's clean-up removes it.
 */
export async function seededFixture(
  engine: Engine,
  assessments: number,
  options: {
    patients?: number;
    units?: number;
    label?: string;
    keep?: boolean;
    root?: string;
  } = {},
): Promise<Fixture> {
  const fixture = await seededDatabase(engine, assessments, options);
  return options.root === undefined ? fixture : { ...fixture, root: options.root };
}

async function seededDatabase(
  engine: Engine,
  assessments: number,
  options: { patients?: number; units?: number; label?: string; keep?: boolean; root?: string },
): Promise<Fixture> {
  const { patients, units, label, keep = false, root } = options;
  const key = seedKey(assessments, patients, label, units);
  const started = performance.now();
  const seedArgs = [
    'seed',
    '--assessments',
    String(assessments),
    ...(patients === undefined ? [] : ['--patients', String(patients)]),
    ...(units === undefined ? [] : ['--units', String(units)]),
  ];
  const report = (where: string) =>
    console.log(
      `Seeded ${assessments.toLocaleString('en')} assessments${patients === undefined ? '' : ` over ${patients.toLocaleString('en')} patients`} on ${engine} in ${((performance.now() - started) / 1000).toFixed(0)} s (${where})`,
    );
  if (engine === 'sqlite') {
    const cached = path.join(benchDir, `sqlite-${key}`);
    if (isSeededSqlite(cached)) return sqliteFixture(cached, leaveDatabase);
    const own = path.join(runDir(), `sqlite-${key}`);
    const dropOwn = dropIfOwnRun(() => fs.rmSync(own, { recursive: true, force: true }));
    if (isSeededSqlite(own)) return sqliteFixture(own, dropOwn);
    const seeding = path.join(runDir(), `seeding-sqlite-${key}`);
    fs.rmSync(seeding, { recursive: true, force: true });
    await runTriage({ DATA_DIR: seeding }, seedArgs, '', root);
    fs.writeFileSync(path.join(seeding, SEEDED_MARKER), '');
    if (keep) {
      try {
        fs.renameSync(seeding, cached);
        report(`kept in ${cached}`);
        return sqliteFixture(cached, leaveDatabase);
      } catch {
        // Another run kept one first (then use it), or an unfinished seed holds the name.
        if (isSeededSqlite(cached)) {
          fs.rmSync(seeding, { recursive: true, force: true });
          return sqliteFixture(cached, leaveDatabase);
        }
        console.warn(`${cached} holds an unfinished seed: this one stays in ${own}`);
      }
    }
    fs.renameSync(seeding, own);
    report(`in ${own}`);
    return sqliteFixture(own, dropOwn);
  }
  const cached = `triage_bench_${databaseKey(key)}`;
  if (await postgresDatabaseExists(cached)) return postgresFixture(cached, leaveDatabase);
  const own = `${runDatabasePrefix}${databaseKey(key)}`;
  const dropOwn = dropIfOwnRun(() => dropPostgresDatabase(own));
  if (await postgresDatabaseExists(own)) return postgresFixture(own, dropOwn);
  const loading = `${loadingDatabasePrefix}${databaseKey(key)}`;
  await dropPostgresDatabase(loading);
  await withAdminClient((client) => client.query(`create database ${loading}`));
  try {
    await runTriage({ DATABASE_URL: databaseUrlFor(loading) }, seedArgs, '', root);
  } catch (error) {
    await dropPostgresDatabase(loading);
    throw error;
  }
  if (keep) {
    try {
      await renamePostgresDatabase(loading, cached);
      report(`kept as ${cached}`);
      return postgresFixture(cached, leaveDatabase);
    } catch (error) {
      // 42P04: another run kept one under that name first; use it.
      if ((error as { code?: string }).code !== '42P04') throw error;
      await dropPostgresDatabase(loading);
      return postgresFixture(cached, leaveDatabase);
    }
  }
  await renamePostgresDatabase(loading, own);
  report(`as ${own}`);
  return postgresFixture(own, dropOwn);
}

async function renamePostgresDatabase(from: string, to: string): Promise<void> {
  await withAdminClient((client) => client.query(`alter database ${from} rename to ${to}`));
}

/**
 * Drops the PostgreSQL databases made for this run, by its scripts too (`npm run bench` calls it
 * at its end): never a kept one, nor another run's.
 */
export async function dropRunDatabases(): Promise<void> {
  await withAdminClient(async (client) => {
    const found = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1) or starts_with(datname, $2)',
      [runDatabasePrefix, loadingDatabasePrefix],
    );
    for (const { datname } of found.rows) {
      await client.query(`drop database if exists ${datname} with (force)`);
    }
  });
}

/** A new, empty database of this run (migrated by the first server to start on it), dropped after use. */
export async function emptyFixture(engine: Engine, label: string): Promise<Fixture> {
  if (engine === 'sqlite') {
    const dataDir = path.join(runDir(), `sqlite-empty-${label}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    return sqliteFixture(dataDir, async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  }
  const name = `${runDatabasePrefix}empty_${label}`;
  await dropPostgresDatabase(name);
  await withAdminClient((client) => client.query(`create database ${name}`));
  return postgresFixture(name, () => dropPostgresDatabase(name));
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
function startScriptNodeFlags(root: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
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
  const root = fixture.root ?? repoRoot;
  // As `npm start` runs it; then any flags NODE_OPTIONS refuses (a CPU profile, say).
  const nodeFlags = [
    ...startScriptNodeFlags(root),
    ...(process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  ];
  const child: ChildProcess = spawn(nodeBinary, [...nodeFlags, 'src/cli/main.ts', 'serve'], {
    cwd: root,
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
    fixture.root,
  );
  return user;
}

/** Runs a command to its end; rejects on a non-zero exit. */
async function run(command: string, args: string[], cwd: string): Promise<void> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

/**
 * An earlier build of the product to measure against: `commit` of this repository, exported
 * (`git archive`) into the benchmarks' cache with its own dependencies (`npm ci`), and reused
 * by later runs. Its databases are seeded and served by its own `triage` command.
 */
export async function exportedBuild(commit: string): Promise<string> {
  const dir = path.join(benchDir, `build-${commit}`);
  const ready = path.join(dir, '.ready');
  if (fs.existsSync(ready)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = path.join(runDir(), `build-${commit}.tar`);
  await run('git', ['archive', '--output', archive, commit], repoRoot);
  await run('tar', ['-xf', archive, '-C', dir], dir);
  await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel', 'error'], dir);
  fs.writeFileSync(ready, '');
  return dir;
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
