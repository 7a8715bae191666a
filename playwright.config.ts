import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { adminPassword, adminUsername } from './e2e/fixtures.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = path.join(os.tmpdir(), `triage-e2e-${process.pid}`);

/**
 * Browser tests drive Debian's Chromium (never a downloaded browser) against the built app served
 * by the real server on an empty embedded database.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1366, height: 768 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node src/cli/main.ts serve',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(process.env.WEB_ROOT === undefined ? {} : { WEB_ROOT: process.env.WEB_ROOT }),
      // The server creates this first administrator on its first start.
      TRIAGE_ADMIN_USERNAME: adminUsername,
      TRIAGE_ADMIN_PASSWORD: adminPassword,
      // The tests that sign the administrator in with a password are about other things;
      // second-factor-required.spec.ts starts servers of its own with the requirement on.
      MFA_REQUIRED_ROLES: '',
    },
  },
});
