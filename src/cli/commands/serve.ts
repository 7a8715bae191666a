import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, defaultWebRoot } from '../../server/app.ts';
import { discoverOidcProvider } from '../../server/auth/oidc.ts';
import { limitPasswordHashing, owaspScryptCost } from '../../server/auth/passwords.ts';
import {
  unknownActiveVersion,
  unknownActiveVersionMessage,
} from '../../server/services/rule-sets.ts';
import { compactKeptCountsPeriodically } from '../../server/services/kept-count-compaction.ts';
import { ensureFirstAdministrator } from '../../server/services/users.ts';
import { loadConfig } from '../../server/config.ts';
import {
  openDatabase,
  sqliteFileIn,
  sqliteFilesOf,
  type DatabaseHandle,
} from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import {
  checkAdministratorSettings,
  checkDatabaseFilesWritable,
  checkDatabaseReachable,
  checkDataDir,
  checkHostResolves,
  checkPoolFits,
  checkWebRoot,
  listenFaultOf,
} from '../../server/startup.ts';
import { holdServerLock } from '../../server/server-lock.ts';
import { parseOptions } from '../options.ts';
import { buildWebIfNeeded } from '../web-build.ts';

export const usage = `Usage: triage serve [--build-if-needed]

Starts the server with the settings in the environment (PORT, HOST, DATA_DIR, DATABASE_URL and
the others in README). --build-if-needed first builds the web app when its sources changed.
A setting it cannot start with stops it in one line, exit code 78.
`;

const projectRoot = path.resolve(import.meta.dirname, '../../..');

async function buildWeb(): Promise<void> {
  const { build } = await import('vite');
  await build({ logLevel: 'warn' });
}

export async function runServeCommand(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { 'build-if-needed': { type: 'boolean' } });
  const config = loadConfig();
  // Settings that can be checked without side effects are checked before anything is built,
  // created or migrated; each fault is one line naming its variable (main.ts prints it).
  checkAdministratorSettings(config);
  checkWebRoot(config.webRoot);
  await checkHostResolves(config.host);
  // A wrong or unreachable issuer stops the start in one line (OIDC_ISSUER).
  const oidcProvider =
    config.oidc === undefined ? undefined : await discoverOidcProvider(config.oidc);
  if (config.databaseUrl === undefined) {
    checkDataDir(config.dataDir);
    // Held from before the database opens until the process exits (also after a failed start).
    const releaseLock = holdServerLock(config.dataDir);
    process.once('exit', releaseLock);
    checkDatabaseFilesWritable(sqliteFilesOf(sqliteFileIn(config.dataDir)));
  }
  if (values['build-if-needed'] === true && config.webRoot === undefined) {
    await buildWebIfNeeded({
      root: projectRoot,
      webRoot: defaultWebRoot,
      build: buildWeb,
      say: (line) => process.stdout.write(`${line}\n`),
    });
  }

  // The server carries on when a database connection is lost: requests answer 503 until the pool
  // connects again. A loss before the app and its log exist goes unlogged.
  let logLostConnection: (error: Error) => void = () => undefined;
  limitPasswordHashing(config.passwordHashConcurrency);
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    onConnectionLost: (error) => logLostConnection(error),
  });
  let applied: string[];
  try {
    await checkDatabaseReachable(database, config.databaseUrl);
    await checkPoolFits(database, config.databasePoolSize);
    applied = await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const context = {
    config,
    database,
    now: () => new Date(),
    passwordCost: owaspScryptCost,
    oidcProvider,
  };
  await ensureFirstAdministrator(context, (line) => process.stdout.write(`${line}\n`));
  // Saves are refused then, but the server starts so that an administrator can activate another.
  const unknownVersion = await unknownActiveVersion(context);
  if (unknownVersion !== undefined) {
    process.stderr.write(`${unknownActiveVersionMessage(unknownVersion)}\n`);
  }
  const app = await buildApp({ context, webRoot: config.webRoot });
  for (const migration of applied) app.log.info({ migration }, 'applied a database migration');
  logLostConnection = (error) =>
    app.log.warn(
      { err: { type: error.name, message: error.message } },
      'a database connection was lost',
    );

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    await database.close();
    throw listenFaultOf(error, config.host, config.port) ?? error;
  }
  const stopCompaction = compactKeptCountsPeriodically(database, (error) =>
    app.log.error({ err: error }, 'folding the kept counts failed'),
  );
  stopOnSignals(app, database, config.shutdownTimeoutSeconds, stopCompaction);
  return 0;
}

/**
 * SIGTERM or SIGINT: stop taking connections and let the requests in flight finish, for at most
 * the shutdown timeout; then close the connections still open and the database (so that SQLite
 * checkpoints cleanly) and exit.
 */
function stopOnSignals(
  app: FastifyInstance,
  database: DatabaseHandle,
  timeoutSeconds: number,
  stopCompaction: () => Promise<void>,
): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, timeoutSeconds }, 'shutting down');
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutSeconds * 1000);
    });
    // Closing the server ends the connections idle at that moment only; a kept-alive connection
    // whose request finishes later would otherwise hold the close open until the deadline.
    const idleSweep = setInterval(() => app.server.closeIdleConnections(), 100);
    void Promise.race([app.close().then(() => 'closed' as const), deadline])
      .then(async (outcome) => {
        clearTimeout(timer);
        clearInterval(idleSweep);
        if (outcome === 'timeout') {
          app.log.warn(
            { timeoutSeconds },
            'requests were still in flight at the shutdown deadline; their connections are closed',
          );
          app.server.closeAllConnections();
        }
        await stopCompaction();
        await database.close();
      })
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
