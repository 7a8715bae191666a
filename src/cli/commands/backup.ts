import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../../server/config.ts';
import { runningServerPid, serverLockFile } from '../../server/server-lock.ts';

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A failure the operator can act on: printed as one line, exit code 1. */
class BackupError extends Error {}

function sqliteFile(dataDir: string): string {
  return path.join(dataDir, 'triage.sqlite');
}

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

/** A triage database has the migrations table with at least the first migration in it. */
function migrationsOf(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const row = db.prepare('select count(*) as n from kysely_migration').get();
    return Number(row?.n);
  } catch {
    throw new BackupError(`${file} is not a backup of this product's database.`);
  } finally {
    db.close();
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
  if (fs.existsSync(target)) throw new BackupError(`${target} exists; name a new file.`);
  if (config.databaseUrl !== undefined) {
    if (!pgTool('pg_dump')) {
      throw new BackupError(
        'pg_dump is not installed here. Install the PostgreSQL client tools of the server\'s version, or run on a machine that has them: pg_dump --format=custom --file=FILE "$DATABASE_URL"',
      );
    }
    runPgTool('pg_dump', ['--format=custom', `--file=${target}`, `--dbname=${config.databaseUrl}`]);
    io.stdout.write(
      `Backed up the PostgreSQL database to ${target} (${fs.statSync(target).size} bytes, pg_dump custom format).\n`,
    );
    return;
  }
  const source = sqliteFile(config.dataDir);
  if (!fs.existsSync(source))
    throw new BackupError(`There is no database at ${source} (DATA_DIR).`);
  const db = new DatabaseSync(source);
  try {
    // The server may be committing: wait for it rather than fail.
    db.exec('pragma busy_timeout = 10000');
    db.prepare('vacuum into ?').run(target);
  } finally {
    db.close();
  }
  const integrity = integrityOf(target);
  if (integrity !== 'ok')
    throw new BackupError(`The copy at ${target} failed its integrity check: ${integrity}`);
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
 * "In use": on SQLite, a server's lock file under DATA_DIR naming a process that runs; on
 * PostgreSQL, any other session connected to the database. Either refuses without --force.
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
      `Restored the PostgreSQL database from ${source}. The next start applies any newer migrations.\n`,
    );
    return;
  }
  const integrity = integrityOf(source);
  if (integrity !== 'ok')
    throw new BackupError(`${source} failed its integrity check: ${integrity}`);
  const migrations = migrationsOf(source);
  const target = sqliteFile(config.dataDir);
  const pid = runningServerPid(config.dataDir);
  if (pid !== undefined && !force) {
    throw new BackupError(
      `The database ${target} is in use by a running server (process ${pid}, ${serverLockFile(config.dataDir)}): stop it first, or add --force.`,
    );
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  // The copy is made beside the database and renamed over it, so a restore cut short leaves the
  // old database whole. The old one is kept, with its write-ahead log folded in: a log left
  // beside the restored file would be replayed into it.
  const incoming = `${target}.restoring`;
  fs.copyFileSync(source, incoming);
  let keptAs: string | undefined;
  if (fs.existsSync(target)) {
    const old = new DatabaseSync(target);
    try {
      old.exec('pragma busy_timeout = 10000; pragma wal_checkpoint(truncate)');
    } finally {
      old.close();
    }
    keptAs = `${target}.before-restore-${new Date().toISOString().replaceAll(':', '-')}`;
    fs.renameSync(target, keptAs);
  }
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
  fs.renameSync(incoming, target);
  io.stdout.write(
    `Restored ${target} from ${source} (${migrations} migrations, integrity check ok).` +
      (keptAs === undefined ? '' : ` The database it replaced is kept as ${keptAs}.`) +
      (pid === undefined
        ? ''
        : ` Restart the server (process ${pid}) now: it still has the old database open.`) +
      ' The next start applies any newer migrations.\n',
  );
}

const usage = `Usage:
  triage backup --to FILE
  triage restore --from FILE [--force]

SQLite: an online, consistent copy while the server runs; a restore refuses while a server runs
over DATA_DIR (its server.pid names a running process) unless --force. PostgreSQL: pg_dump and
pg_restore (custom format); a restore refuses while other sessions are connected unless --force.
`;

export async function runBackupCommand(
  command: 'backup' | 'restore',
  args: string[],
  io: Io,
): Promise<number> {
  let values: { to?: string | undefined; from?: string | undefined; force?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        to: { type: 'string' },
        from: { type: 'string' },
        force: { type: 'boolean' },
      },
    }));
  } catch {
    io.stderr.write(usage);
    return 2;
  }
  try {
    if (command === 'backup' && values.to !== undefined && values.from === undefined) {
      await backup(values.to, io);
      return 0;
    }
    if (command === 'restore' && values.from !== undefined && values.to === undefined) {
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
