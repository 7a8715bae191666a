// Every test tier: unit and database tests on SQLite and PostgreSQL, then the browser tests.
// Unlike `npm test`, this fails (never skips) when PostgreSQL or Chromium is missing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';

function fail(message: string): never {
  process.stderr.write(`test:all: ${message}\n`);
  process.exit(1);
}

function run(command: string, args: string[]): void {
  process.stdout.write(`\n$ ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0)
    fail(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) {
  fail('TEST_DATABASE_URL is not set; it must name a PostgreSQL database the tests may use.');
}
const client = new pg.Client({ connectionString: databaseUrl });
try {
  await client.connect();
  await client.query('select 1');
} catch (error) {
  fail(`PostgreSQL at TEST_DATABASE_URL is not reachable: ${String(error)}`);
} finally {
  await client.end().catch(() => undefined);
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  fail(
    `Chromium not found at ${chromium} (install Debian's chromium package or set CHROMIUM_PATH).`,
  );
}

run('vitest', ['run']);
run('vite', ['build']);
run('playwright', ['test']);
process.stdout.write('\ntest:all: every tier passed on SQLite, PostgreSQL and Chromium.\n');
