import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../server/testing/databases.ts';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
// The project's Node 24 (the system node may be older).
const node = path.join(projectRoot, 'node_modules/.bin/node');

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-serve-faults-'));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A port nothing listens on now (the system picks it, then it is let go). */
async function sparePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `triage serve` with the given settings; it must stop by itself. */
async function serve(env: Record<string, string>) {
  const child = spawn(node, ['src/cli/main.ts', 'serve'], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: fs.mkdtempSync(path.join(scratch, 'data-')),
      PORT: String(await sparePort()),
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { exitCode, stderr };
}

function expectOneLine(result: { exitCode: number | null; stderr: string }, line: string) {
  expect(result.exitCode).toBe(78);
  expect(result.stderr).toBe(`${line}\n`);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

const goodPassword = 'lantern orchard basalt 42';

describe('triage serve stops on a setting it cannot start with, in one line', () => {
  it('HOST that does not resolve', async () => {
    expectOneLine(
      await serve({ HOST: 'no-such-host.invalid' }),
      'Invalid configuration: HOST does not resolve to an address (got "no-such-host.invalid")',
    );
  });

  it('HOST that is not an address of this machine', async () => {
    // 192.0.2.1 is kept for documentation (RFC 5737): never a local address.
    expectOneLine(
      await serve({ HOST: '192.0.2.1' }),
      'Cannot start: HOST 192.0.2.1 is not an address of this machine',
    );
  });

  it('PORT already in use', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      expectOneLine(
        await serve({ PORT: String(port) }),
        `Cannot start: PORT ${port} is already in use on 127.0.0.1 (another program listens there; choose another PORT)`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('DATA_DIR that cannot be created (a file stands in its path)', async () => {
    const file = path.join(scratch, 'a-file');
    fs.writeFileSync(file, '');
    const dataDir = path.join(file, 'data');
    expectOneLine(
      await serve({ DATA_DIR: dataDir }),
      `Invalid configuration: DATA_DIR cannot be created or written: ${dataDir} (ENOTDIR)`,
    );
  });

  it('DATA_DIR that cannot be written (/proc refuses new folders)', async () => {
    expectOneLine(
      await serve({ DATA_DIR: '/proc/triage-data' }),
      'Invalid configuration: DATA_DIR cannot be created or written: /proc/triage-data (ENOENT)',
    );
  });

  it('DATABASE_URL that cannot be reached', async () => {
    const port = await sparePort();
    expectOneLine(
      await serve({ DATABASE_URL: `postgres://triage@127.0.0.1:${port}/triage` }),
      `Cannot start: the database at 127.0.0.1:${port} cannot be reached (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  // These two need a PostgreSQL server to refuse; they are defined where TEST_DATABASE_URL names
  // one (test:all, CI), as the other tests of both engines.
  const postgres = testDatabaseUrl();
  const postgresIt = postgres === undefined ? () => undefined : it;
  postgresIt('DATABASE_URL naming a user the database refuses', async () => {
    const url = new URL(postgres ?? '');
    url.username = 'no_such_triage_user';
    url.password = '';
    const where = `${url.hostname}:${url.port || '5432'}`;
    const result = await serve({ DATABASE_URL: url.toString() });
    expect(result.exitCode).toBe(78);
    expect(result.stderr).toMatch(
      new RegExp(
        `^Cannot start: the database at ${where} refuses the user no_such_triage_user \\(DATABASE_URL\\): .+\\n$`,
      ),
    );
    expect(result.stderr).not.toMatch(/migration/i);
  });

  postgresIt("DATABASE_POOL_SIZE larger than the database's max_connections", async () => {
    const url = new URL(postgres ?? '');
    const server = new pg.Client({ connectionString: postgres });
    await server.connect();
    const maxConnections = Number(
      (await server.query<{ max_connections: string }>('show max_connections')).rows[0]
        ?.max_connections,
    );
    await server.end();
    const result = await serve({
      DATABASE_URL: url.toString(),
      DATABASE_POOL_SIZE: String(maxConnections),
    });
    expect(result.exitCode).toBe(78);
    expect(result.stderr).toMatch(
      new RegExp(
        `^Cannot start: DATABASE_POOL_SIZE ${maxConnections} does not fit the database's max_connections ${maxConnections} \\(\\d+ for ordinary users\\); lower it or raise max_connections\\n$`,
      ),
    );
  });

  postgresIt('DATABASE_URL naming a database that does not exist', async () => {
    const url = new URL(postgres ?? '');
    url.pathname = '/no_such_triage_database';
    const where = `${url.hostname}:${url.port || '5432'}`;
    expectOneLine(
      await serve({ DATABASE_URL: url.toString() }),
      `Cannot start: the database no_such_triage_database does not exist at ${where} (DATABASE_URL); create it first`,
    );
  });

  it('WEB_ROOT without an index.html', async () => {
    const webRoot = fs.mkdtempSync(path.join(scratch, 'web-'));
    expectOneLine(
      await serve({ WEB_ROOT: webRoot }),
      `Invalid configuration: WEB_ROOT has no index.html: ${webRoot} (build the web app with npm run build, or unset WEB_ROOT)`,
    );
  });

  it.each([
    ['too short', 'short', 'Passwords are at least 12 characters'],
    ['common', 'password1234', 'This password is too common; choose another'],
    [
      'containing the user name',
      'clinic-admin-lantern',
      'The password must not contain the user name',
    ],
    ['too long', 'x'.repeat(129), 'Passwords are at most 128 characters'],
  ])('TRIAGE_ADMIN_PASSWORD %s, without printing it', async (_, password, problem) => {
    const result = await serve({
      TRIAGE_ADMIN_USERNAME: 'clinic-admin',
      TRIAGE_ADMIN_PASSWORD: password,
    });
    expectOneLine(result, `Invalid configuration: TRIAGE_ADMIN_PASSWORD is refused: ${problem}`);
    expect(result.stderr).not.toContain(password);
  });

  it('TRIAGE_ADMIN_USERNAME that is not a user name', async () => {
    expectOneLine(
      await serve({ TRIAGE_ADMIN_USERNAME: 'Dr Admin!', TRIAGE_ADMIN_PASSWORD: goodPassword }),
      'Invalid configuration: TRIAGE_ADMIN_USERNAME is not a valid user name: 2 to 64 letters, digits, dots, dashes or underscores (got "Dr Admin!")',
    );
  });

  it('MFA_REQUIRED_ROLES naming a role the product does not have', async () => {
    expectOneLine(
      await serve({ MFA_REQUIRED_ROLES: 'admin,receptionist' }),
      'Invalid configuration: MFA_REQUIRED_ROLES must be a comma-separated list of nurse, doctor, admin, manager, or empty for none (got "receptionist")',
    );
  });

  it('TRIAGE_ADMIN_USERNAME without a password', async () => {
    expectOneLine(
      await serve({ TRIAGE_ADMIN_USERNAME: 'clinic-admin' }),
      'Invalid configuration: TRIAGE_ADMIN_USERNAME is set without TRIAGE_ADMIN_PASSWORD; set both to create the first administrator',
    );
  });

  it('TRIAGE_ADMIN_PASSWORD without a user name', async () => {
    expectOneLine(
      await serve({ TRIAGE_ADMIN_PASSWORD: goodPassword }),
      'Invalid configuration: TRIAGE_ADMIN_PASSWORD is set without TRIAGE_ADMIN_USERNAME; set both to create the first administrator',
    );
  });

  it('SHUTDOWN_TIMEOUT_SECONDS that is not a number of seconds', async () => {
    expectOneLine(
      await serve({ SHUTDOWN_TIMEOUT_SECONDS: 'soon' }),
      'Invalid configuration: SHUTDOWN_TIMEOUT_SECONDS must be a whole number from 0 to 3600 (got "soon")',
    );
  });
});
