import dns from 'node:dns/promises';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { usernameSchema } from '../shared/api/users.ts';
import { passwordProblem } from './auth/passwords.ts';
import { ConfigError, type Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';

/**
 * A setting the server cannot start with, found by trying it (a host that does not resolve, a
 * port in use, a database that refuses): one line naming the variable, and no stack trace, since
 * the command line prints a ConfigError's message alone.
 */
export class StartupFault extends ConfigError {
  constructor(variable: string, message: string) {
    super(variable, '');
    this.message = message;
  }
}

/** TRIAGE_ADMIN_USERNAME and TRIAGE_ADMIN_PASSWORD come together and meet the account rules. */
export function checkAdministratorSettings(config: Config): void {
  const { adminUsername, adminPassword } = config;
  if (adminUsername === undefined) {
    if (adminPassword !== undefined) {
      throw new ConfigError(
        'TRIAGE_ADMIN_PASSWORD',
        'is set without TRIAGE_ADMIN_USERNAME; set both to create the first administrator',
      );
    }
    return;
  }
  const username = usernameSchema.safeParse(adminUsername);
  if (!username.success) {
    throw new ConfigError(
      'TRIAGE_ADMIN_USERNAME',
      `is not a valid user name: 2 to 64 letters, digits, dots, dashes or underscores (got "${adminUsername}")`,
    );
  }
  if (adminPassword === undefined) {
    throw new ConfigError(
      'TRIAGE_ADMIN_USERNAME',
      'is set without TRIAGE_ADMIN_PASSWORD; set both to create the first administrator',
    );
  }
  const problem = passwordProblem(adminPassword, username.data);
  // The password itself is never printed.
  if (problem !== undefined)
    throw new ConfigError('TRIAGE_ADMIN_PASSWORD', `is refused: ${problem}`);
}

/** WEB_ROOT, when set, is a built web app: a folder with index.html. */
export function checkWebRoot(webRoot: string | undefined): void {
  if (webRoot === undefined) return;
  if (!fs.existsSync(path.join(webRoot, 'index.html'))) {
    throw new ConfigError(
      'WEB_ROOT',
      `has no index.html: ${webRoot} (build the web app with npm run build, or unset WEB_ROOT)`,
    );
  }
}

/**
 * Makes a folder and its missing parents one level at a time: Node's recursive mkdirSync never
 * returns for a path under a file system that refuses new folders with ENOENT, such as /proc.
 * The folder itself is made 0700: the database in it is for the server's user alone.
 */
function makeFolder(folder: string): void {
  const missing: string[] = [];
  for (let at = folder; !fs.existsSync(at); at = path.dirname(at)) missing.unshift(at);
  for (const level of missing) fs.mkdirSync(level, { mode: level === folder ? 0o700 : 0o777 });
}

/** The folder of the SQLite database can be created and written (a file is made and removed). */
export function checkDataDir(dataDir: string): void {
  const probe = path.join(dataDir, `.write-check-${process.pid}`);
  try {
    makeFolder(dataDir);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigError('DATA_DIR', `cannot be created or written: ${dataDir} (${code})`);
  }
}

/**
 * Every file of the SQLite database that exists can be opened for writing by this process. A file
 * left owned by another user (`triage user add` or `restore` run as root) would otherwise be
 * opened read-only by SQLite: the server would answer its health checks and fail every write.
 */
export function checkDatabaseFilesWritable(files: readonly string[]): void {
  for (const file of files) {
    let descriptor: number;
    try {
      descriptor = fs.openSync(file, 'r+');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      if (code === 'ENOENT') continue;
      throw new StartupFault(
        'DATA_DIR',
        `Cannot start: the database file ${file} cannot be written by this process (${code}); make the server's user its owner (DATA_DIR)`,
      );
    }
    fs.closeSync(descriptor);
  }
}

/** HOST names an address this machine can look up. */
export async function checkHostResolves(host: string): Promise<void> {
  try {
    await dns.lookup(host);
  } catch {
    throw new ConfigError('HOST', `does not resolve to an address (got "${host}")`);
  }
}

function postgresTarget(databaseUrl: string): { where: string; user: string; database: string } {
  const url = new URL(databaseUrl);
  const host = url.hostname || 'localhost';
  return {
    where: `${host}:${url.port || '5432'}`,
    user: decodeURIComponent(url.username) || '(the default user)',
    database: decodeURIComponent(url.pathname.slice(1)) || '(the default database)',
  };
}

/**
 * Connects to PostgreSQL once before the migrations run, so that a database that cannot be
 * reached, refuses the user or does not exist is said as such (not as a failed migration).
 */
export async function checkDatabaseReachable(
  database: DatabaseHandle,
  databaseUrl: string | undefined,
): Promise<void> {
  if (databaseUrl === undefined) return;
  try {
    await sql`select 1`.execute(database.db);
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    const target = postgresTarget(databaseUrl);
    // 28P01 invalid_password, 28000 invalid_authorization_specification (no such role, pg_hba).
    if (code === '28P01' || code === '28000') {
      throw new StartupFault(
        'DATABASE_URL',
        `Cannot start: the database at ${target.where} refuses the user ${target.user} (DATABASE_URL): ${message ?? code}`,
      );
    }
    if (code === '3D000') {
      throw new StartupFault(
        'DATABASE_URL',
        `Cannot start: the database ${target.database} does not exist at ${target.where} (DATABASE_URL); create it first`,
      );
    }
    throw new StartupFault(
      'DATABASE_URL',
      `Cannot start: the database at ${target.where} cannot be reached (DATABASE_URL): ${message ?? code ?? 'no answer'}`,
    );
  }
}

/**
 * The pool must fit in what PostgreSQL lets ordinary users hold (`max_connections` less the
 * connections it keeps for superusers and reserved roles), or saves would wait for connections
 * that never come once it is full.
 */
export async function checkPoolFits(database: DatabaseHandle, poolSize: number): Promise<void> {
  if (database.engine !== 'postgres') return;
  const { rows } = await sql<{ name: string; setting: string }>`
    select name, setting from pg_settings
    where name in ('max_connections', 'superuser_reserved_connections', 'reserved_connections')
  `.execute(database.db);
  const setting = (name: string) => Number(rows.find((row) => row.name === name)?.setting ?? 0);
  const maxConnections = setting('max_connections');
  const available =
    maxConnections - setting('superuser_reserved_connections') - setting('reserved_connections');
  if (poolSize > available) {
    throw new StartupFault(
      'DATABASE_POOL_SIZE',
      `Cannot start: DATABASE_POOL_SIZE ${poolSize} does not fit the database's max_connections ${maxConnections} (${available} for ordinary users); lower it or raise max_connections`,
    );
  }
}

/** Why listening failed, named by the variable at fault; undefined for anything else. */
export function listenFaultOf(
  error: unknown,
  host: string,
  port: number,
): StartupFault | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new StartupFault(
      'PORT',
      `Cannot start: PORT ${port} is already in use on ${host} (another program listens there; choose another PORT)`,
    );
  }
  if (code === 'EACCES') {
    return new StartupFault(
      'PORT',
      `Cannot start: PORT ${port} on ${host} needs privileges this process does not have (choose a PORT above 1023)`,
    );
  }
  if (code === 'EADDRNOTAVAIL') {
    return new StartupFault('HOST', `Cannot start: HOST ${host} is not an address of this machine`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new StartupFault(
      'HOST',
      `Invalid configuration: HOST does not resolve to an address (got "${host}")`,
    );
  }
  return undefined;
}
