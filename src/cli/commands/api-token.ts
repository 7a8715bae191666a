import { configuredContext, operator, type WithContext } from '../command-context.ts';
import { exitCodeForFault, parseOptions } from '../options.ts';
import { createApiToken, listApiTokens, revokeApiToken } from '../../server/services/api-tokens.ts';
import { asUnitOptionFault } from '../unit-option.ts';

export const usage = `Usage:
  triage api-token create --name NAME [--unit CODE]
                                        Make a token for another system's FHIR reads (printed
                                        once) of the unit's records and those below it
  triage api-token list                 Names, units and dates of every token (never the tokens)
  triage api-token revoke NAME          Refuse the live token of that name from now on

The unit is named by its code (without regard to case); --unit may be left out only while there
is one unit.
`;

export async function runApiTokenCommand(
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  withContext: WithContext = configuredContext,
): Promise<number> {
  const [subcommand, ...rest] = args;
  try {
    // Only `create` takes an option; the others take names, and an option given to them is refused.
    if (subcommand !== 'create') parseOptions(rest, {}, true);
    switch (subcommand) {
      case 'create': {
        const { values } = parseOptions(rest, {
          name: { type: 'string' },
          unit: { type: 'string' },
        });
        if (values.name === undefined) break;
        const name = values.name;
        const { token, unit } = await withContext((context) =>
          createApiToken(context, operator, name, values.unit),
        );
        io.stdout.write(`${token}\n`);
        io.stderr.write(
          `Created API token ${name} for ${unit}: it reads the records of ${unit} and the units below it. It is shown this once and stored only as a hash: keep it in the other system's settings.\n`,
        );
        return 0;
      }
      case 'list': {
        const tokens = await withContext(listApiTokens);
        io.stdout.write('name\tunit\tcreated\tlast used\trevoked\n');
        for (const token of tokens) {
          io.stdout.write(
            `${token.name}\t${token.unit}\t${token.createdAt}\t${token.lastUsedAt ?? '-'}\t${token.revokedAt ?? '-'}\n`,
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
    return exitCodeForFault(asUnitOptionFault(error), io.stderr, usage);
  }
  io.stderr.write(usage);
  return 2;
}
