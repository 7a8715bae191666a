import fs from 'node:fs';
import path from 'node:path';
import { buildApp, defaultWebRoot } from '../../server/app.ts';
import { owaspScryptCost } from '../../server/auth/passwords.ts';
import {
  unknownActiveVersion,
  unknownActiveVersionMessage,
} from '../../server/services/rule-sets.ts';
import { ensureFirstAdministrator } from '../../server/services/users.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';

async function buildWebIfMissing(): Promise<void> {
  if (fs.existsSync(path.join(defaultWebRoot, 'index.html'))) return;
  process.stdout.write('Building the web app (first start)...\n');
  const { build } = await import('vite');
  await build({ logLevel: 'warn' });
}

export async function runServeCommand(args: string[]): Promise<number> {
  const config = loadConfig();
  if (args.includes('--build-if-needed')) await buildWebIfMissing();

  // The server carries on when a database connection is lost: requests answer 503 until the pool
  // connects again. A loss before the app and its log exist goes unlogged.
  let logLostConnection: (error: Error) => void = () => undefined;
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionLost: (error) => logLostConnection(error),
  });
  await migrateToLatest(database);
  const context = { config, database, now: () => new Date(), passwordCost: owaspScryptCost };
  await ensureFirstAdministrator(context, (line) => process.stdout.write(`${line}\n`));
  // Saves are refused then, but the server starts so that an administrator can activate another.
  const unknownVersion = await unknownActiveVersion(context);
  if (unknownVersion !== undefined) {
    process.stderr.write(`${unknownActiveVersionMessage(unknownVersion)}\n`);
  }
  const app = await buildApp({ context, webRoot: config.webRoot });
  logLostConnection = (error) =>
    app.log.warn(
      { err: { type: error.name, message: error.message } },
      'a database connection was lost',
    );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // In-flight requests finish; then the database is closed so that SQLite checkpoints cleanly.
    void app
      .close()
      .then(() => database.close())
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

  await app.listen({ port: config.port, host: config.host });
  return 0;
}
