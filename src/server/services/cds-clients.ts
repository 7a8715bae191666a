import { importJWK, type JWK } from 'jose';
import type { SessionUser } from '../../shared/api/session.ts';
import type { AppContext } from '../context.ts';
import { checkedFhirServerUrl } from '../cds/fhir-servers.ts';
import { cdsClientsRepository, type CdsClientRow } from '../db/repositories/cds-clients.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { recordAudit } from './audit.ts';
import { unitOfNewClient } from './client-units.ts';

/** Who registers or removes a client: an administrator, or the command line's operator (null). */
export interface ClientRequester {
  user: SessionUser | null;
  address: string | null;
}

/** The signing algorithms a CDS client may use (the CDS Hooks specification recommends both). */
export const CDS_ALGORITHMS = ['ES384', 'RS384'] as const;

/** JWK members that only a private or symmetric key has. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** How long the service waits for a JWK Set or a record system's FHIR server. */
export const REMOTE_TIMEOUT_MS = 5000;

function invalid(message: string, field: string): AppError {
  return new AppError(400, 'validation_failed', message, field);
}

/** The algorithm a public key verifies with, when it is one a CDS client may use. */
export function cdsAlgorithmOf(key: JWK): (typeof CDS_ALGORITHMS)[number] | undefined {
  if (key.kty === 'EC' && key.crv === 'P-384' && (key.alg === undefined || key.alg === 'ES384')) {
    return 'ES384';
  }
  if (key.kty === 'RSA' && (key.alg === undefined || key.alg === 'RS384')) return 'RS384';
  return undefined;
}

/**
 * Checks a JWK Set: an object with `keys`, no private or symmetric key among them, and at least
 * one ES384 or RS384 public key that imports. Returns it as JSON text, as stored.
 */
async function checkedJwks(value: unknown, field = 'jwks'): Promise<string> {
  if (
    typeof value !== 'object' ||
    value === null ||
    !Array.isArray((value as { keys?: unknown }).keys)
  ) {
    throw invalid('The JWK Set must be a JSON object with a "keys" array.', field);
  }
  const keys = (value as { keys: unknown[] }).keys;
  let usable = 0;
  for (const [index, key] of keys.entries()) {
    if (typeof key !== 'object' || key === null) {
      throw invalid(`Key ${index} of the JWK Set is not an object.`, field);
    }
    const jwk = key as JWK;
    if (jwk.kty === 'oct' || PRIVATE_MEMBERS.some((member) => member in jwk)) {
      throw invalid(
        `Key ${index} of the JWK Set is a private or symmetric key: register the public keys only.`,
        field,
      );
    }
    const algorithm = cdsAlgorithmOf(jwk);
    if (algorithm === undefined) continue;
    try {
      await importJWK(jwk, algorithm);
    } catch {
      throw invalid(`Key ${index} of the JWK Set is not a valid ${algorithm} public key.`, field);
    }
    usable += 1;
  }
  if (usable === 0) {
    throw invalid('The JWK Set has no ES384 (EC P-384) or RS384 (RSA) public key.', field);
  }
  return JSON.stringify(value);
}

/** A JWK Set URL: https, or http to this machine only (a stand-in record system, a test). */
function checkedJwksUrl(text: string): URL {
  if (!URL.canParse(text)) throw invalid('The JWK Set URL is not a URL.', 'jwksUrl');
  const url = new URL(text);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw invalid('The JWK Set URL must be https:// (http:// only to this machine).', 'jwksUrl');
  }
  return url;
}

/** Reads a JWK Set from its URL, refusing as `jwksUrl` what does not answer JSON in time. */
async function fetchJwks(url: URL): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
      redirect: 'error',
    });
  } catch {
    throw invalid(
      `The JWK Set URL could not be read within ${REMOTE_TIMEOUT_MS / 1000} s.`,
      'jwksUrl',
    );
  }
  if (!response.ok) {
    throw invalid(`The JWK Set URL answered ${response.status}.`, 'jwksUrl');
  }
  try {
    return await response.json();
  } catch {
    throw invalid('The JWK Set URL did not answer JSON.', 'jwksUrl');
  }
}

function checkedIssuer(issuer: string): string {
  if (issuer === '' || issuer.length > 500 || /\s/.test(issuer)) {
    throw invalid(
      'The issuer must be 1 to 500 characters without spaces (the iss of its JWTs).',
      'issuer',
    );
  }
  return issuer;
}

/**
 * A client's keys as given at registration: a JWK Set stored (`jwks`, checked) or the URL it is
 * read from (checked now, read again as calls need it); exactly one of them.
 */
export async function checkedKeySource(body: {
  jwks?: unknown;
  jwksUrl?: string;
}): Promise<{ jwks: string | null; jwksUrl: string | null }> {
  if ((body.jwks === undefined) === (body.jwksUrl === undefined)) {
    throw invalid('Give either a JWK Set or a JWK Set URL.', 'jwks');
  }
  if (body.jwksUrl === undefined) return { jwks: await checkedJwks(body.jwks), jwksUrl: null };
  const url = checkedJwksUrl(body.jwksUrl);
  await checkedJwks(await fetchJwks(url), 'jwksUrl');
  return { jwks: null, jwksUrl: url.href };
}

/** A registered client with the FHIR servers its calls may name and the code of its unit. */
export type CdsClient = CdsClientRow & { fhirServers: string[]; unitCode: string };

function checkedFhirServers(urls: readonly string[]): string[] {
  const checked = urls.map((text) => {
    const result = checkedFhirServerUrl(text);
    if ('problem' in result) throw invalid(result.problem, 'fhirServers');
    return result.url;
  });
  return [...new Set(checked)];
}

/**
 * Registers a record system as a CDS client for a unit (by its code; see unitOfNewClient), with
 * its JWK Set stored (`jwks`, parsed JSON) or read from a URL (checked now, read again as calls
 * need it), and the FHIR servers its calls may name. One audited transaction.
 */
export async function addCdsClient(
  context: AppContext,
  requester: ClientRequester,
  body: {
    issuer: string;
    jwks?: unknown;
    jwksUrl?: string;
    fhirServers?: readonly string[];
    unit?: string | undefined;
  },
): Promise<CdsClient> {
  const issuer = checkedIssuer(body.issuer);
  const fhirServers = checkedFhirServers(body.fhirServers ?? []);
  const { jwks, jwksUrl } = await checkedKeySource(body);
  const now = context.now();
  const row: Omit<CdsClientRow, 'org_unit_id'> = {
    id: timeOrderedId(now.getTime()),
    issuer,
    jwks,
    jwks_url: jwksUrl,
    created_at: now.toISOString(),
    created_by: requester.user?.id ?? null,
    removed_at: null,
    removed_by: null,
  };
  try {
    const unit = await context.database.transaction(async (trx) => {
      const unit = await unitOfNewClient(trx, body.unit);
      if ((await cdsClientsRepository.findLive(trx, issuer)) !== undefined) {
        throw new AppError(
          409,
          'conflict',
          `A client with issuer ${issuer} is already registered; remove it first.`,
          'issuer',
        );
      }
      await cdsClientsRepository.insert(trx, { ...row, org_unit_id: unit.id });
      await cdsClientsRepository.insertFhirServers(trx, row.id, fhirServers, row.created_at);
      await recordAudit(trx, {
        at: now,
        actor: requester.user,
        action: 'cds_client_add',
        target: { type: 'cds_client', id: issuer },
        address: requester.address,
        detail: `unit ${unit.code}`,
      });
      return unit;
    });
    return { ...row, org_unit_id: unit.id, fhirServers, unitCode: unit.code };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (/UNIQUE constraint failed|duplicate key value/i.test((error as Error).message)) {
      throw new AppError(
        409,
        'conflict',
        `A client with issuer ${issuer} is already registered; remove it first.`,
        'issuer',
      );
    }
    throw error;
  }
}

export async function listCdsClients(context: AppContext): Promise<CdsClient[]> {
  const clients = await cdsClientsRepository.listLive(context.database.db);
  const servers = await cdsClientsRepository.fhirServersOf(
    context.database.db,
    clients.map((client) => client.id),
  );
  return clients.map(({ unit_code, ...client }) => ({
    ...client,
    fhirServers: servers.get(client.id) ?? [],
    unitCode: unit_code,
  }));
}

/** Removes a client: its JWTs are refused from now on. Audited; its row is kept. */
export async function removeCdsClient(
  context: AppContext,
  requester: ClientRequester,
  issuer: string,
): Promise<void> {
  const now = context.now();
  await context.database.transaction(async (trx) => {
    const removed = await cdsClientsRepository.remove(
      trx,
      issuer,
      now.toISOString(),
      requester.user?.id ?? null,
    );
    if (!removed)
      throw new AppError(
        404,
        'not_found',
        `No client with issuer ${issuer} is registered.`,
        'issuer',
      );
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: 'cds_client_remove',
      target: { type: 'cds_client', id: issuer },
      address: requester.address,
    });
  });
}
