import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { adminPassword, adminUsername } from './fixtures.ts';

/**
 * A server of a test's own, with its own data folder and port, for what the shared test server
 * (playwright.config.ts) must not be given: other settings, or web files the test changes.
 */
export interface OwnServer {
  url: string;
  /** Its data folder, for the `triage` command to work on beside it. */
  dataDir: string;
  stop(): Promise<void>;
}

/** A port no program listens on, as the system hands one out (other test runs share the machine). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('No port')),
      );
    });
  });
}

/**
 * Starts `triage serve` on SQLite with the first administrator of the fixtures; `settings` adds
 * variables, and a variable set to undefined is left out (the product's default applies). A
 * free port is taken unless `settings` names one (PORT), which a test may need to know first.
 */
export async function startOwnServer(
  settings: Record<string, string | undefined>,
): Promise<OwnServer> {
  const port = settings.PORT === undefined ? await freePort() : Number(settings.PORT);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-e2e-own-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    TRIAGE_ADMIN_USERNAME: adminUsername,
    TRIAGE_ADMIN_PASSWORD: adminPassword,
  };
  delete env.DATABASE_URL;
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const server: ChildProcess = spawn(process.execPath, ['src/cli/main.ts', 'serve'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    // Healthy while this process runs: the answer is this server's, not another program's.
    if (healthy && server.exitCode === null) return { url, dataDir, stop };
    if (server.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not start (exit code ${server.exitCode})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
