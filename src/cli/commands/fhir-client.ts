import { configuredContext, operator, type WithContext } from '../command-context.ts';
import { readJwksFile } from '../jwks-file.ts';
import { exitCodeForFault, parseOptions } from '../options.ts';
import {
  addFhirClient,
  listFhirClients,
  removeFhirClient,
} from '../../server/services/fhir-clients.ts';
import { asUnitOptionFault } from '../unit-option.ts';

export const usage = `Usage:
  triage fhir-client add --client-id ID (--jwks-file FILE | --jwks-url URL) --scope "SCOPES"
                         [--unit CODE]
                              Let a system read the FHIR API by SMART Backend Services: it asks
                              POST /api/oauth/token for access tokens with JWTs signed by its
                              keys (public RS384 or ES384 keys of the JWK Set); SCOPES are what
                              it may be granted, e.g. "system/RiskAssessment.rs system/Patient.rs"
                              or "system/*.rs"; it reads the records of the unit (by its code,
                              without regard to case) and the units below it
  triage fhir-client list     The registered clients: client id, unit, where their keys are,
                              their scopes, since when
  triage fhir-client remove ID
                              Refuse that client's assertions and access tokens from now on

--unit may be left out only while there is one unit.
`;

export async function runFhirClientCommand(
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  withContext: WithContext = configuredContext,
): Promise<number> {
  const [subcommand, ...rest] = args;
  try {
    // Only `add` takes options; the others take an id, and an option given to them is refused.
    if (subcommand !== 'add') parseOptions(rest, {}, true);
    switch (subcommand) {
      case 'add': {
        const { values } = parseOptions(rest, {
          'client-id': { type: 'string' },
          'jwks-file': { type: 'string' },
          'jwks-url': { type: 'string' },
          scope: { type: 'string' },
          unit: { type: 'string' },
        });
        const clientId = values['client-id'];
        const file = values['jwks-file'];
        const url = values['jwks-url'];
        const scope = values.scope;
        if (clientId === undefined || scope === undefined) break;
        if ((file === undefined) === (url === undefined)) break;
        const jwks = file === undefined ? undefined : readJwksFile(file);
        const client = await withContext((context) =>
          addFhirClient(context, operator, {
            clientId,
            scope,
            unit: values.unit,
            ...(jwks === undefined ? {} : { jwks }),
            ...(url === undefined ? {} : { jwksUrl: url }),
          }),
        );
        io.stdout.write(
          `Registered FHIR client ${clientId} for ${client.unitCode}: it reads the records of ${client.unitCode} and the units below it; its JWK Set is ${url === undefined ? 'stored' : `read from ${url}`}; it may be granted ${client.scopes}.\n`,
        );
        return 0;
      }
      case 'list': {
        if (rest.length > 0) break;
        const clients = await withContext(listFhirClients);
        io.stdout.write('client id\tunit\tkeys\tscopes\tregistered\n');
        for (const client of clients) {
          const keys =
            client.jwks_url ??
            `stored (${(JSON.parse(client.jwks ?? '{"keys":[]}') as { keys: unknown[] }).keys.length} keys)`;
          io.stdout.write(
            `${client.client_id}\t${client.unitCode}\t${keys}\t${client.scopes}\t${client.created_at}\n`,
          );
        }
        return 0;
      }
      case 'remove': {
        const clientId = rest[0];
        if (clientId === undefined || rest.length !== 1) break;
        await withContext((context) => removeFhirClient(context, operator, clientId));
        io.stdout.write(
          `Removed FHIR client ${clientId}; its assertions and access tokens are refused from now on.\n`,
        );
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
