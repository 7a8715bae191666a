import { owaspScryptCost } from '../server/auth/passwords.ts';
import { loadConfig, type Config } from '../server/config.ts';
import type { AppContext } from '../server/context.ts';
import {
  openDatabase,
  sqliteFileIn,
  sqliteFilesOf,
  type DatabaseHandle,
} from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import {
  checkDatabaseFilesWritable,
  checkDatabaseReachable,
  checkDataDir,
} from '../server/startup.ts';

/** Runs work with the configured database (migrated); a test passes its own. */
export type WithContext = <T>(work: (context: AppContext) => Promise<T>) => Promise<T>;

/**
 * The database the settings name, checked as `triage serve` checks it (a folder that cannot be
 * made, a file this user cannot write, a PostgreSQL that cannot be reached: one line, exit 78),
 * then migrated. Returns the migrations it applied.
 */
export async function openCommandDatabase(
  config: Config,
): Promise<{ database: DatabaseHandle; applied: string[] }> {
  if (config.databaseUrl === undefined) {
    checkDataDir(config.dataDir);
    checkDatabaseFilesWritable(sqliteFilesOf(sqliteFileIn(config.dataDir)));
  }
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await checkDatabaseReachable(database, config.databaseUrl);
    return { database, applied: await migrateToLatest(database) };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The database the environment names, migrated, opened for the work and closed after it. */
export const configuredContext: WithContext = async (work) => {
  const config = loadConfig();
  const { database } = await openCommandDatabase(config);
  try {
    return await work({ config, database, now: () => new Date(), passwordCost: owaspScryptCost });
  } finally {
    await database.close();
  }
};

/** The command line acts as the operator of the machine, recorded in the audit trail as such. */
export const operator = { user: null, address: 'command line' };
