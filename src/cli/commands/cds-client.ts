import { parseArgs } from 'node:util';
import { AppError } from '../../server/errors.ts';
import { configuredContext, operator, type WithContext } from '../command-context.ts';
import { readJwksFile } from '../jwks-file.ts';
import {
  addCdsClient,
  listCdsClients,
  removeCdsClient,
} from '../../server/services/cds-clients.ts';
import { asUnitOptionFault } from '../unit-option.ts';

export const usage = `Usage:
  triage cds-client add --issuer ISS (--jwks-file FILE | --jwks-url URL) [--fhir-server URL]...
                        [--unit CODE]
                              Let the record system whose JWTs carry iss ISS call the CDS Hooks
                              service, checked against its JWK Set (public ES384 or RS384 keys);
                              its calls may name as fhirServer only a URL under one of the
                              --fhir-server URLs (same scheme, host and port, the path a prefix);
                              it finds the patient records of the unit (by its code, without
                              regard to case) and the units below it, and makes new ones in it
  triage cds-client list      The registered clients: issuer, unit, where their keys are, since
                              when, their FHIR servers
  triage cds-client remove ISS
                              Refuse that issuer's calls from now on

--unit may be left out only while there is one unit.
`;

export async function runCdsClientCommand(
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  withContext: WithContext = configuredContext,
): Promise<number> {
  const [subcommand, ...rest] = args;
  try {
    switch (subcommand) {
      case 'add': {
        const { values } = parseArgs({
          args: rest,
          options: {
            issuer: { type: 'string' },
            'jwks-file': { type: 'string' },
            'jwks-url': { type: 'string' },
            'fhir-server': { type: 'string', multiple: true },
            unit: { type: 'string' },
          },
        });
        const file = values['jwks-file'];
        const url = values['jwks-url'];
        if (values.issuer === undefined || (file === undefined) === (url === undefined)) break;
        const issuer = values.issuer;
        const jwks = file === undefined ? undefined : readJwksFile(file);
        const client = await withContext((context) =>
          addCdsClient(context, operator, {
            issuer,
            ...(jwks === undefined ? {} : { jwks }),
            ...(url === undefined ? {} : { jwksUrl: url }),
            fhirServers: values['fhir-server'] ?? [],
            unit: values.unit,
          }),
        );
        io.stdout.write(
          `Registered CDS client ${issuer} for ${client.unitCode}; its JWK Set is ${url === undefined ? 'stored' : `read from ${url}`}; ` +
            `${client.fhirServers.length === 0 ? 'its calls may name no FHIR server' : `its calls may name FHIR servers under ${client.fhirServers.join(', ')}`}.\n`,
        );
        return 0;
      }
      case 'list': {
        const clients = await withContext(listCdsClients);
        io.stdout.write('issuer\tunit\tkeys\tregistered\tFHIR servers\n');
        for (const client of clients) {
          const keys =
            client.jwks_url ??
            `stored (${(JSON.parse(client.jwks ?? '{"keys":[]}') as { keys: unknown[] }).keys.length} keys)`;
          const servers = client.fhirServers.length === 0 ? 'none' : client.fhirServers.join(' ');
          io.stdout.write(
            `${client.issuer}\t${client.unitCode}\t${keys}\t${client.created_at}\t${servers}\n`,
          );
        }
        return 0;
      }
      case 'remove': {
        const issuer = rest[0];
        if (issuer === undefined || rest.length !== 1) break;
        await withContext((context) => removeCdsClient(context, operator, issuer));
        io.stdout.write(`Removed CDS client ${issuer}; its calls are refused from now on.\n`);
        return 0;
      }
      default:
        break;
    }
  } catch (caught) {
    const error = asUnitOptionFault(caught);
    if (error instanceof AppError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    if (
      error instanceof TypeError &&
      'code' in error &&
      String(error.code).startsWith('ERR_PARSE_ARGS')
    ) {
      io.stderr.write(`${error.message}\n${usage}`);
      return 2;
    }
    throw error;
  }
  io.stderr.write(usage);
  return 2;
}
