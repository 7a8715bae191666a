import { loadConfig } from '../../server/config.ts';
import { openCommandDatabase } from '../command-context.ts';
import { parseOptions } from '../options.ts';

export const usage = `Usage: triage migrate

Brings the database schema up to date (the database DATA_DIR or DATABASE_URL names).
`;

export async function runMigrateCommand(args: string[]): Promise<number> {
  parseOptions(args, {});
  const { database, applied } = await openCommandDatabase(loadConfig());
  try {
    process.stdout.write(
      applied.length === 0
        ? 'The database schema is up to date.\n'
        : `Applied ${applied.length} migration(s): ${applied.join(', ')}\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}
