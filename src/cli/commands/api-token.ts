import { parseArgs } from 'node:util';
import { owaspScryptCost } from '../../server/auth/passwords.ts';
import { loadConfig } from '../../server/config.ts';
import type { AppContext } from '../../server/context.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { AppError } from '../../server/errors.ts';
import { createApiToken, listApiTokens, revokeApiToken } from '../../server/services/api-tokens.ts';

const usage = `Usage:
  triage api-token create --name NAME   Make a token for another system's FHIR reads (printed once)
  triage api-token list                 Names and dates of every token (never the tokens)
  triage api-token revoke NAME          Refuse the live token of that name from now on
`;

/** Runs work with the configured database (migrated), as the other commands do. */
export type WithContext = <T>(work: (context: AppContext) => Promise<T>) => Promise<T>;

const configuredContext: WithContext = async (work) => {
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
const operator = { user: null, address: 'command line' };

export async function runApiTokenCommand(
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  withContext: WithContext = configuredContext,
): Promise<number> {
  const [subcommand, ...rest] = args;
  try {
    switch (subcommand) {
      case 'create': {
        const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
        if (values.name === undefined) break;
        const name = values.name;
        const { token } = await withContext((context) => createApiToken(context, operator, name));
        io.stdout.write(`${token}\n`);
        io.stderr.write(
          `Created API token ${name}. It is shown this once and stored only as a hash: keep it in the other system's settings.\n`,
        );
        return 0;
      }
      case 'list': {
        const tokens = await withContext(listApiTokens);
        io.stdout.write('name\tcreated\tlast used\trevoked\n');
        for (const token of tokens) {
          io.stdout.write(
            `${token.name}\t${token.createdAt}\t${token.lastUsedAt ?? '-'}\t${token.revokedAt ?? '-'}\n`,
          );
        }
        return 0;
      }
      case 'revoke': {
        const name = rest[0];
        if (name === undefined || rest.length > 1) break;
        await withContext((context) => revokeApiToken(context, operator, name));
        io.stdout.write(`Revoked API token ${name}.\n`);
        return 0;
      }
      default:
        break;
    }
  } catch (error) {
    if (error instanceof AppError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    if (error instanceof TypeError && 'code' in error) {
      // parseArgs refuses an unknown option with a TypeError carrying a code.
      io.stderr.write(`${error.message}\n${usage}`);
      return 2;
    }
    throw error;
  }
  io.stderr.write(usage);
  return 2;
}
