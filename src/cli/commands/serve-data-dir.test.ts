import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sqliteFileIn } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { projectRoot, runTriage, sparePort } from '../testing/run-triage.ts';

const node = path.join(projectRoot, 'node_modules/.bin/node');

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-serve-data-dir-'));
  // Another user (below) must reach the folders in it.
  fs.chmodSync(scratch, 0o755);
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Starts `triage serve` over DATA_DIR and resolves once it answers its health check. */
async function startServer(dataDir: string) {
  const port = await sparePort();
  const child = spawn(node, ['src/cli/main.ts', 'serve'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let tries = 0; ; tries += 1) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return child;
    } catch {
      if (tries > 300 || child.exitCode !== null) throw new Error('the server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('triage serve over a DATA_DIR', () => {
  it(
    "refuses a second server on the same folder in one line, leaving the first one's pid file",
    { timeout: 120_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(scratch, 'shared-'));
      const first = await startServer(dataDir);
      try {
        const pidFile = path.join(dataDir, 'server.pid');
        expect(fs.readFileSync(pidFile, 'utf8')).toBe(`${first.pid}\n`);
        const second = await runTriage(['serve'], {
          DATA_DIR: dataDir,
          PORT: String(await sparePort()),
        });
        expect(second).toEqual({
          exitCode: 78,
          stdout: '',
          stderr: `Cannot start: another server (process ${first.pid}) runs over DATA_DIR ${dataDir} (${pidFile}); stop it first, or give this one another DATA_DIR\n`,
        });
        // The first server's file is still there, so a restore still sees it as in use.
        expect(fs.readFileSync(pidFile, 'utf8')).toBe(`${first.pid}\n`);
        const restore = await runTriage(['restore', '--from', sqliteFileIn(dataDir)], {
          DATA_DIR: dataDir,
        });
        expect(restore.exitCode).toBe(1);
        expect(restore.stderr).toContain(`in use by a running server (process ${first.pid}`);
      } finally {
        first.kill('SIGTERM');
        await new Promise((resolve) => first.once('exit', resolve));
      }
      expect(fs.existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
    },
  );

  // Permission bits do not stop root, which the tests run as in CI's container: the server runs
  // as another user (nobody, through setpriv) over a database file left by root. Defined where
  // the tests run as root, as the PostgreSQL tests are where a server is given.
  const rootIt = process.getuid?.() === 0 ? it : () => undefined;
  rootIt(
    'stops the start in one line naming a database file it cannot write',
    { timeout: 60_000 },
    async () => {
      const nobody = { uid: 65534, gid: 65534 };
      const dataDir = fs.mkdtempSync(path.join(scratch, 'root-owned-'));
      fs.chownSync(dataDir, nobody.uid, nobody.gid);
      // As `triage user add` run as root leaves it: a database file of root's, 0600.
      const database = openDatabase({ dataDir });
      await migrateToLatest(database);
      await database.close();
      const file = sqliteFileIn(dataDir);
      expect(fs.statSync(file).uid).toBe(0);
      const result = await runTriage(
        ['serve'],
        { DATA_DIR: dataDir, PORT: String(await sparePort()) },
        { as: nobody, deadlineMillis: 30_000 },
      );
      expect(result).toEqual({
        exitCode: 78,
        stdout: '',
        stderr: `Cannot start: the database file ${file} cannot be written by this process (EACCES); make the server's user its owner (DATA_DIR)\n`,
      });
    },
  );
});
