import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { discoverOidcProvider } from '../auth/oidc.ts';
import { loadConfig, type Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { ScryptCost } from '../auth/passwords.ts';
import type { TestDatabase } from './databases.ts';

/** Cheap hashes keep the suite fast; production uses OWASP's cost (passwords.test.ts checks it). */
export const testPasswordCost: ScryptCost = { logN: 10, r: 8, p: 1 };

export interface TestApp {
  app: FastifyInstance;
  context: AppContext;
  database: DatabaseHandle;
  config: Config;
  /** Moves the injected clock forward. */
  advance(milliseconds: number): void;
  close(): Promise<void>;
}

/** The real application over a fresh database, with a controllable clock and no logging. */
export async function openTestApp(
  testDatabase: TestDatabase,
  env: Record<string, string> = {},
  /** Adds hooks a test observes the app with, before the app is ready. */
  beforeReady?: (app: FastifyInstance) => void,
): Promise<TestApp> {
  const database = await testDatabase.open();
  // A second factor is required of no role unless a test says so: the tests that sign an
  // administrator in with a password are about other things (the product's default is `admin`).
  const config = loadConfig({ LOG_LEVEL: 'silent', MFA_REQUIRED_ROLES: '', ...env });
  let now = Date.parse('2026-11-22T09:00:00.000Z');
  const context: AppContext = {
    config,
    database,
    now: () => new Date(now),
    passwordCost: testPasswordCost,
    oidcProvider: config.oidc === undefined ? undefined : await discoverOidcProvider(config.oidc),
  };
  const app = await buildApp({
    context,
    logger: false,
    webRoot: '/nonexistent',
  });
  beforeReady?.(app);
  await app.ready();
  return {
    app,
    context,
    database,
    config,
    advance(milliseconds) {
      now += milliseconds;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}
