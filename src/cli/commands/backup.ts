import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { loadConfig } from '../../server/config.ts';
import { openDatabase, sqliteFileIn, sqliteFilesOf } from '../../server/db/database.ts';
import { migrations } from '../../server/db/migrations/index.ts';
import { runningServerPid, serverLockFile } from '../../server/server-lock.ts';
import { checkDatabaseReachable, StartupFault } from '../../server/startup.ts';
import { parseOptions } from '../options.ts';

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A refusal the operator can act on (a file that exists, a file that is no backup): one line, exit code 1. */
class BackupError extends Error {}

/** SQLite's own check of every page and index; 'ok' when sound. */
function integrityOf(file: string): string {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('pragma integrity_check').all();
    return rows.map((row) => String(Object.values(row)[0])).join('; ');
  } catch (error) {
    throw new BackupError(`${file} is not a readable SQLite database: ${(error as Error).message}`);
  } finally {
    db?.close();
  }
}

/** The names in a database's migrations table; undefined when it has none. */
function sqliteMigrationNames(file: string): string[] | undefined {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare('select name from kysely_migration order by name').all();
    return rows.map((row) => String(row.name));
  } catch {
    return undefined;
  } finally {
    db.close();
  }
}

/**
 * A backup of this product's database has its first migration, and none this build does not know
 * (a newer version's: this build would run on a schema it was not written for). Restoring a
 * foreign database would start the server empty, on a schema of its own making.
 */
function checkMigrations(source: string, names: string[] | undefined): number {
  const first = migrations[0]?.name ?? '';
  if (names === undefined || !names.includes(first)) {
    throw new BackupError(
      `${source} is not a backup of this product's database: it lacks the first migration ${first}. Nothing was changed.`,
    );
  }
  const known = new Set(migrations.map((migration) => migration.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new BackupError(
      `${source} holds the migration ${unknown.join(', ')}, which this build does not know: it comes from a newer version, which must restore it. Nothing was changed.`,
    );
  }
  return names.length;
}

/** The migration names a pg_dump custom-format file holds in its migrations table. */
function dumpMigrationNames(source: string): string[] | undefined {
  const result = spawnSync(
    'pg_restore',
    ['--data-only', '--table=kysely_migration', '--file=-', source],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  if (result.status !== 0) {
    const reason = (result.stderr || 'failed').trim().split('\n')[0];
    throw new BackupError(`${source} is not a pg_dump custom-format file: ${reason}`);
  }
  const lines = result.stdout.split('\n');
  const start = lines.findIndex((line) => /^COPY \S*kysely_migration /.test(line));
  if (start === -1) return undefined;
  const end = lines.indexOf('\\.', start);
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .map((line) => line.split('\t')[0] ?? '');
}

/**
 * A new file only this user may read, created beside `target` under a name of its own with
 * O_EXCL (so a symbolic link planted at that name is not followed). Returns its name.
 */
function privateFileBeside(target: string): string {
  const name = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${crypto.randomBytes(6).toString('hex')}.partial`,
  );
  const descriptor = fs.openSync(name, 'wx', 0o600);
  try {
    fs.fchmodSync(descriptor, 0o600);
  } finally {
    fs.closeSync(descriptor);
  }
  return name;
}

/** Flushes a file, or a folder's entries, to the disk. */
function flush(file: string): void {
  const descriptor = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(descriptor);
  } finally {
    fs.closeSync(descriptor);
  }
}

/**
 * Gives the finished copy its name: link(2) fails when anything, a symbolic link included, is at
 * the name, so nothing there is overwritten or followed. The temporary name is removed after.
 */
function publish(temporary: string, target: string): void {
  flush(temporary);
  try {
    fs.linkSync(temporary, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new BackupError(`${target} exists; name a new file.`);
    }
    throw error;
  }
  fs.rmSync(temporary);
  flush(path.dirname(target));
}

/** A file that exists (a dangling symbolic link too) is refused; a missing folder is a fault. */
function checkBackupTarget(target: string): void {
  if (fs.lstatSync(target, { throwIfNoEntry: false }) !== undefined) {
    throw new BackupError(`${target} exists; name a new file.`);
  }
  const folder = path.dirname(target);
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new StartupFault('--to', `Cannot back up: there is no folder ${folder} (--to)`);
  }
}

/** PostgreSQL answers, or the fault is said as `serve` says it (one line, exit 78). */
async function checkPostgresReachable(databaseUrl: string): Promise<void> {
  const database = openDatabase({ databaseUrl, poolSize: 1 });
  try {
    await checkDatabaseReachable(database, databaseUrl);
  } finally {
    await database.close();
  }
}

function pgTool(name: 'pg_dump' | 'pg_restore'): boolean {
  return spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Runs pg_dump or pg_restore with the connection string given as an argument, never printed. */
function runPgTool(name: 'pg_dump' | 'pg_restore', args: string[]): void {
  const result = spawnSync(name, args, { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) {
    const reason = (result.stderr || result.error?.message || 'failed').trim().split('\n')[0];
    throw new BackupError(`${name} failed: ${reason}`);
  }
}

/**
 * SQLite: VACUUM INTO from a connection of its own makes the copy in one read transaction, so
 * it is consistent while the server goes on saving (WAL lets writers carry on beside a reader),
 * and compact. PostgreSQL: pg_dump's custom format, one consistent snapshot too.
 */
async function backup(to: string, io: Io): Promise<void> {
  const config = loadConfig();
  const target = path.resolve(to);
  checkBackupTarget(target);
  if (config.databaseUrl !== undefined) {
    if (!pgTool('pg_dump')) {
      throw new BackupError(
        'pg_dump is not installed here. Install the PostgreSQL client tools of the server\'s version, or run on a machine that has them: pg_dump --format=custom --file=FILE "$DATABASE_URL"',
      );
    }
    await checkPostgresReachable(config.databaseUrl);
    const temporary = privateFileBeside(target);
    try {
      runPgTool('pg_dump', [
        '--format=custom',
        `--file=${temporary}`,
        `--dbname=${config.databaseUrl}`,
      ]);
      publish(temporary, target);
    } finally {
      fs.rmSync(temporary, { force: true });
    }
    io.stdout.write(
      `Backed up the PostgreSQL database to ${target} (${fs.statSync(target).size} bytes, pg_dump custom format).\n`,
    );
    return;
  }
  const source = sqliteFileIn(config.dataDir);
  if (!fs.existsSync(source)) {
    throw new StartupFault(
      'DATA_DIR',
      `Cannot back up: there is no database at ${source} (DATA_DIR)`,
    );
  }
  const temporary = privateFileBeside(target);
  try {
    const db = new DatabaseSync(source);
    try {
      // The server may be committing: wait for it rather than fail.
      db.exec('pragma busy_timeout = 10000');
      // Into the empty file made above, which keeps its mode.
      db.prepare('vacuum into ?').run(temporary);
    } finally {
      db.close();
    }
    const integrity = integrityOf(temporary);
    if (integrity !== 'ok')
      throw new BackupError(`The copy for ${target} failed its integrity check: ${integrity}`);
    publish(temporary, target);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  io.stdout.write(
    `Backed up ${source} to ${target} (${fs.statSync(target).size} bytes, integrity check ok).\n`,
  );
}

/** PostgreSQL sessions on the database other than this one: a server, psql, another tool. */
async function otherPostgresSessions(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(
      `The database cannot be reached (DATABASE_URL): ${(error as Error).message}`,
    );
  }
  try {
    const result = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * Copies a backup into a new file beside the database that only this user may read (created with
 * O_EXCL), flushed to the disk. Run as root, it is given to the owner of DATA_DIR, the server's
 * user, who could not write a file of root's.
 */
function privateCopy(source: string, target: string, dataDir: string): string {
  const incoming = privateFileBeside(target);
  const from = fs.openSync(source, 'r');
  const to = fs.openSync(incoming, 'r+');
  try {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const read = fs.readSync(from, chunk);
      if (read === 0) break;
      for (let written = 0; written < read;) {
        written += fs.writeSync(to, chunk, written, read - written);
      }
    }
    fs.fsyncSync(to);
    if (process.getuid?.() === 0) {
      const owner = fs.statSync(dataDir);
      fs.fchownSync(to, owner.uid, owner.gid);
    }
  } finally {
    fs.closeSync(from);
    fs.closeSync(to);
  }
  return incoming;
}

/**
 * Moves the database and its -wal and -shm files aside under `keptAs`, holding SQLite's write
 * lock so that no commit of a running server (with --force) falls between the moves. The three
 * stay together, so the kept database opens with everything committed to it; a server still
 * holding the old files goes on seeing them, finds at its next commit that the file at the path
 * is another, and refuses that commit and every request after (database.ts).
 */
function moveAside(target: string, keptAs: string, serverRuns: boolean): void {
  const old = new DatabaseSync(target);
  try {
    // With no server the log is folded into the file; a running server's is not waited for (a
    // full checkpoint would hold its saves up), as the log moves with the file.
    old.exec(
      `pragma busy_timeout = 10000; pragma wal_checkpoint(${serverRuns ? 'passive' : 'truncate'}); begin immediate`,
    );
    const moves = sqliteFilesOf(target).map((from, index) => [from, sqliteFilesOf(keptAs)[index]]);
    for (const [from, to] of moves) {
      if (from !== undefined && to !== undefined && fs.existsSync(from)) fs.renameSync(from, to);
    }
    old.exec('rollback');
  } finally {
    old.close();
  }
  const [, keptWal, keptShm] = sqliteFilesOf(keptAs);
  // With no server, an empty log and its index are of no use to the kept file.
  if (!serverRuns && keptWal !== undefined && keptShm !== undefined) {
    if (fs.statSync(keptWal, { throwIfNoEntry: false })?.size === 0) fs.rmSync(keptWal);
    if (!fs.existsSync(keptWal)) fs.rmSync(keptShm, { force: true });
  }
}

/**
 * "In use": on SQLite, a server's lock file under DATA_DIR naming a process that runs; on
 * PostgreSQL, any other session connected to the database. Either refuses without --force.
 * Whatever the backup lacks is found before anything is changed.
 */
async function restore(from: string, force: boolean, io: Io): Promise<void> {
  const config = loadConfig();
  const source = path.resolve(from);
  if (!fs.existsSync(source)) throw new BackupError(`There is no backup at ${source}.`);
  if (config.databaseUrl !== undefined) {
    if (!pgTool('pg_restore')) {
      throw new BackupError(
        'pg_restore is not installed here. Install the PostgreSQL client tools, or run: pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$DATABASE_URL" FILE',
      );
    }
    const migrationCount = checkMigrations(source, dumpMigrationNames(source));
    await checkPostgresReachable(config.databaseUrl);
    const sessions = await otherPostgresSessions(config.databaseUrl);
    if (sessions > 0 && !force) {
      throw new BackupError(
        `The database is in use (${sessions} other session${sessions === 1 ? '' : 's'} connected): stop the server first, or add --force.`,
      );
    }
    runPgTool('pg_restore', [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--single-transaction',
      `--dbname=${config.databaseUrl}`,
      source,
    ]);
    io.stdout.write(
      `Restored the PostgreSQL database from ${source} (${migrationCount} migrations). The next start applies any newer migrations.\n`,
    );
    return;
  }
  const integrity = integrityOf(source);
  if (integrity !== 'ok')
    throw new BackupError(`${source} failed its integrity check: ${integrity}`);
  const migrationCount = checkMigrations(source, sqliteMigrationNames(source));
  const target = sqliteFileIn(config.dataDir);
  const pid = runningServerPid(config.dataDir);
  if (pid !== undefined && !force) {
    throw new BackupError(
      `The database ${target} is in use by a running server (process ${pid}, ${serverLockFile(config.dataDir)}): stop it first, or add --force.`,
    );
  }
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // The copy is made beside the database and renamed over it, so a restore cut short leaves the
  // old database whole; the old one is kept beside it.
  const incoming = privateCopy(source, target, config.dataDir);
  let keptAs: string | undefined;
  try {
    if (fs.existsSync(target)) {
      keptAs = `${target}.before-restore-${new Date().toISOString().replaceAll(':', '-')}`;
      moveAside(target, keptAs, pid !== undefined);
    } else {
      // A log without its database would be replayed into the restored one.
      for (const each of sqliteFilesOf(target).slice(1)) fs.rmSync(each, { force: true });
    }
    fs.renameSync(incoming, target);
  } finally {
    fs.rmSync(incoming, { force: true });
  }
  flush(config.dataDir);
  io.stdout.write(
    `Restored ${target} from ${source} (${migrationCount} migrations, integrity check ok).` +
      (keptAs === undefined ? '' : ` The database it replaced is kept as ${keptAs}.`) +
      (pid === undefined
        ? ''
        : ` Restart the server (process ${pid}) now: it refuses every request until then.`) +
      ' The next start applies any newer migrations.\n',
  );
}

export const usage = `Usage:
  triage backup --to FILE
  triage restore --from FILE [--force]

backup writes a new file only its user may read (it refuses a path that exists); a missing
folder, a database that cannot be reached or a full disk stops it with exit code 78.
SQLite: an online, consistent copy while the server runs; a restore checks the backup's
migrations first, and refuses while a server runs over DATA_DIR (its server.pid names a running
process) unless --force, after which that server refuses every request until restarted.
PostgreSQL: pg_dump and pg_restore (custom format); a restore refuses while other sessions are
connected unless --force.
`;

export async function runBackupCommand(
  command: 'backup' | 'restore',
  args: string[],
  io: Io,
): Promise<number> {
  const { values } =
    command === 'backup'
      ? parseOptions(args, { to: { type: 'string' } })
      : parseOptions(args, { from: { type: 'string' }, force: { type: 'boolean' } });
  try {
    if ('to' in values && values.to !== undefined) {
      await backup(values.to, io);
      return 0;
    }
    if ('from' in values && values.from !== undefined) {
      await restore(values.from, values.force === true, io);
      return 0;
    }
  } catch (error) {
    if (error instanceof BackupError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  io.stderr.write(usage);
  return 2;
}
