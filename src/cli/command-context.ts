import { owaspScryptCost } from '../server/auth/passwords.ts';
import { loadConfig } from '../server/config.ts';
import type { AppContext } from '../server/context.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';

/** Runs work with the configured database (migrated); a test passes its own. */
export type WithContext = <T>(work: (context: AppContext) => Promise<T>) => Promise<T>;

/** The database the environment names, migrated, opened for the work and closed after it. */
export const configuredContext: WithContext = async (work) => {
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database);
    return await work({ config, database, now: () => new Date(), passwordCost: owaspScryptCost });
  } finally {
    await database.close();
  }
};

/** The command line acts as the operator of the machine, recorded in the audit trail as such. */
export const operator = { user: null, address: 'command line' };
