import crypto from 'node:crypto';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';
import { CLOCK_SKEW_SECONDS, MAX_LIFETIME_SECONDS } from '../cds/client-auth.ts';
import type { AppContext } from '../context.ts';
import { fhirClientsRepository, type FhirClientRow } from '../db/repositories/fhir-clients.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { parseScopes, scopeText, within, type SystemScope } from '../auth/fhir-scopes.ts';
import { recordAudit } from './audit.ts';
import { unitOfNewClient } from './client-units.ts';
import {
  CDS_ALGORITHMS,
  REMOTE_TIMEOUT_MS,
  checkedKeySource,
  type ClientRequester,
} from './cds-clients.ts';

/**
 * SMART Backend Services (issue 38): systems registered by an operator obtain short-lived access
 * tokens for the FHIR read API with the OAuth client credentials grant, authenticating with a
 * JWT signed by a key of their registered JWK Set (`private_key_jwt`).
 */

/** The algorithms an assertion may be signed with (SMART requires a server to support both). */
export const ASSERTION_ALGORITHMS = CDS_ALGORITHMS;
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** How long an access token lives, in seconds (SMART recommends at most five minutes). */
export const ACCESS_TOKEN_SECONDS = 300;
/** Marks an access token for what it is, and keeps it apart from API tokens (`triage_`). */
const accessTokenPrefix = 'triage-fhir_';
const MAX_JTI_LENGTH = 255;
const clientIdPattern = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/;

function invalid(message: string, field: string): AppError {
  return new AppError(400, 'validation_failed', message, field);
}

/** A registered client, with the code of its unit. */
export type FhirClient = FhirClientRow & { unitCode: string };

/**
 * Registers a FHIR client for a unit (by its code; see unitOfNewClient): its JWK Set stored
 * (`jwks`, parsed JSON) or read from a URL (checked now, read again as assertions need it), and
 * the scopes it may be granted. One audited transaction.
 */
export async function addFhirClient(
  context: AppContext,
  requester: ClientRequester,
  body: {
    clientId: string;
    jwks?: unknown;
    jwksUrl?: string;
    scope: string;
    unit?: string | undefined;
  },
): Promise<FhirClient> {
  const clientId = body.clientId;
  if (!clientIdPattern.test(clientId)) {
    throw invalid(
      'A client id is 1 to 200 letters, digits or . _ : / -, starting with a letter or digit.',
      'clientId',
    );
  }
  const parsed = parseScopes(body.scope);
  if ('problem' in parsed) throw invalid(parsed.problem, 'scope');
  const { jwks, jwksUrl } = await checkedKeySource(body);
  const now = context.now();
  const row: Omit<FhirClientRow, 'org_unit_id'> = {
    id: timeOrderedId(now.getTime()),
    client_id: clientId,
    jwks,
    jwks_url: jwksUrl,
    scopes: scopeText(parsed.scopes),
    created_at: now.toISOString(),
    created_by: requester.user?.id ?? null,
    removed_at: null,
    removed_by: null,
  };
  const conflict = () =>
    new AppError(
      409,
      'conflict',
      `A FHIR client ${clientId} is already registered; remove it first.`,
      'clientId',
    );
  try {
    const unit = await context.database.transaction(async (trx) => {
      const unit = await unitOfNewClient(trx, body.unit);
      if ((await fhirClientsRepository.findLive(trx, clientId)) !== undefined) throw conflict();
      await fhirClientsRepository.insert(trx, { ...row, org_unit_id: unit.id });
      await recordAudit(trx, {
        at: now,
        actor: requester.user,
        action: 'fhir_client_add',
        target: { type: 'fhir_client', id: clientId },
        address: requester.address,
        detail: `unit ${unit.code}; ${row.scopes}`,
      });
      return unit;
    });
    return { ...row, org_unit_id: unit.id, unitCode: unit.code };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (/UNIQUE constraint failed|duplicate key value/i.test((error as Error).message)) {
      throw conflict();
    }
    throw error;
  }
}

export async function listFhirClients(context: AppContext): Promise<FhirClient[]> {
  const clients = await fhirClientsRepository.listLive(context.database.db);
  return clients.map(({ unit_code, ...client }) => ({ ...client, unitCode: unit_code }));
}

/** Removes a client: its assertions and the access tokens it holds are refused from now on. */
export async function removeFhirClient(
  context: AppContext,
  requester: ClientRequester,
  clientId: string,
): Promise<void> {
  const now = context.now();
  await context.database.transaction(async (trx) => {
    const removed = await fhirClientsRepository.remove(
      trx,
      clientId,
      now.toISOString(),
      requester.user?.id ?? null,
    );
    if (!removed) {
      throw new AppError(404, 'not_found', `No FHIR client ${clientId} is registered.`, 'clientId');
    }
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: 'fhir_client_remove',
      target: { type: 'fhir_client', id: clientId },
      address: requester.address,
    });
  });
}

/** The OAuth 2.0 error codes the token endpoint answers with (RFC 6749 §5.2). */
export type OAuthErrorCode =
  'invalid_request' | 'invalid_client' | 'invalid_scope' | 'unsupported_grant_type';

/** A refused token request: 401 for invalid_client, else 400, as RFC 6749 says. */
export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly status: 400 | 401;
  constructor(code: OAuthErrorCode, description: string) {
    super(description);
    this.code = code;
    this.status = code === 'invalid_client' ? 401 : 400;
  }
}

/** Remote key sets by URL, kept across requests: jose caches the keys and re-reads on a new kid. */
const remoteKeySets = new Map<string, JWTVerifyGetKey>();

function keySetOf(client: FhirClientRow): JWTVerifyGetKey {
  if (client.jwks !== null) return createLocalJWKSet(JSON.parse(client.jwks) as JSONWebKeySet);
  const url = client.jwks_url ?? '';
  let keySet = remoteKeySets.get(url);
  if (keySet === undefined) {
    keySet = createRemoteJWKSet(new URL(url), { timeoutDuration: REMOTE_TIMEOUT_MS });
    remoteKeySets.set(url, keySet);
  }
  return keySet;
}

/** Why jose refused an assertion, as the OAuth error the client is told. */
function refusalOf(error: unknown, audience: string): OAuthError {
  const refuse = (description: string) => new OAuthError('invalid_client', description);
  if (error instanceof errors.JWTExpired) return refuse('The client assertion has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') {
      return refuse(`The client assertion's aud is not the token endpoint, ${audience}.`);
    }
    return refuse(`The client assertion's ${error.claim} claim is missing or not valid.`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return refuse("The client assertion's signature does not verify with the client's keys.");
  }
  if (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return refuse("No single key of the client's JWK Set matches the assertion's kid and alg.");
  }
  if (error instanceof errors.JWKSTimeout) {
    return refuse("The client's JWK Set URL did not answer in time.");
  }
  if (error instanceof errors.JOSEError) {
    return refuse(`The client assertion could not be verified (${error.code}).`);
  }
  return refuse('The client assertion could not be verified.');
}

export interface TokenRequest {
  grant_type?: string | undefined;
  client_assertion_type?: string | undefined;
  client_assertion?: string | undefined;
  scope?: string | undefined;
}

export interface AccessTokenAnswer {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  scope: string;
}

/** The client id an assertion claims (its iss), for the audit row of a refusal; never trusted. */
export function claimedClientId(assertion: string | undefined): string | undefined {
  try {
    const iss = decodeJwt(assertion ?? '').iss;
    return typeof iss === 'string' && iss !== '' ? iss.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The token endpoint's work: checks the grant, verifies the client assertion for `audience` (the
 * token endpoint's URL) against the client's JWK Set and spends its `jti`, checks the scope is
 * within the client's, and issues an access token, of which only the SHA-256 is kept. Throws an
 * OAuthError naming the fault.
 */
export async function issueAccessToken(
  context: AppContext,
  request: TokenRequest,
  audience: string,
  address: string | null,
): Promise<AccessTokenAnswer> {
  if (request.grant_type === undefined) {
    throw new OAuthError('invalid_request', 'grant_type is required.');
  }
  if (request.grant_type !== 'client_credentials') {
    throw new OAuthError(
      'unsupported_grant_type',
      'Only grant_type=client_credentials is supported.',
    );
  }
  if (request.client_assertion_type !== CLIENT_ASSERTION_TYPE) {
    throw new OAuthError(
      'invalid_request',
      `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}.`,
    );
  }
  const assertion = request.client_assertion;
  if (assertion === undefined || assertion === '') {
    throw new OAuthError('invalid_request', 'client_assertion is required.');
  }
  if (request.scope === undefined || request.scope.trim() === '') {
    throw new OAuthError('invalid_request', 'scope is required.');
  }

  let algorithm: string | undefined;
  let issuer: unknown;
  try {
    algorithm = decodeProtectedHeader(assertion).alg;
    issuer = decodeJwt(assertion).iss;
  } catch {
    throw new OAuthError('invalid_client', 'The client assertion is not a JWT.');
  }
  if (typeof issuer !== 'string' || issuer === '') {
    throw new OAuthError('invalid_client', 'The client assertion has no iss.');
  }
  if (!(ASSERTION_ALGORITHMS as readonly (string | undefined)[]).includes(algorithm)) {
    throw new OAuthError(
      'invalid_client',
      `The client assertion is signed ${String(algorithm).slice(0, 20)}; only RS384 and ES384 are accepted.`,
    );
  }
  const client = await fhirClientsRepository.findLive(context.database.db, issuer);
  if (client === undefined) {
    throw new OAuthError('invalid_client', 'The client assertion names no registered client.');
  }

  const now = context.now();
  let payload;
  try {
    ({ payload } = await jwtVerify(assertion, keySetOf(client), {
      algorithms: [...ASSERTION_ALGORITHMS],
      issuer: client.client_id,
      subject: client.client_id,
      audience,
      requiredClaims: ['exp', 'jti'],
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: now,
    }));
  } catch (error) {
    throw refusalOf(error, audience);
  }
  const nowSeconds = now.getTime() / 1000;
  const exp = payload.exp ?? 0;
  if (exp > nowSeconds + MAX_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) {
    throw new OAuthError(
      'invalid_client',
      'The client assertion expires more than 5 minutes from now.',
    );
  }
  const jti: unknown = payload.jti;
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) {
    throw new OAuthError(
      'invalid_client',
      `The client assertion's jti must be 1 to ${MAX_JTI_LENGTH} characters.`,
    );
  }

  const requested = parseScopes(request.scope.trim());
  if ('problem' in requested) throw new OAuthError('invalid_scope', requested.problem);
  const registered = parseScopes(client.scopes);
  const held: SystemScope[] = 'problem' in registered ? [] : registered.scopes;
  if (!within(requested.scopes, held)) {
    throw new OAuthError(
      'invalid_scope',
      `The scope asked for is beyond the client's registered scope, ${client.scopes}.`,
    );
  }
  const scope = scopeText(requested.scopes);

  const accessToken = `${accessTokenPrefix}${crypto.randomBytes(32).toString('base64url')}`;
  // The assertion's jti is kept while jose would still accept it (until exp plus the skew).
  const fresh = await context.database.transaction(async (trx) => {
    const spent = await fhirClientsRepository.useJti(
      trx,
      client.client_id,
      jti,
      new Date(exp * 1000).toISOString(),
    );
    if (!spent) return false;
    await fhirClientsRepository.insertAccessToken(trx, {
      token_hash: accessTokenHash(accessToken),
      client_row_id: client.id,
      scope,
      expires_at: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000).toISOString(),
    });
    await fhirClientsRepository.pruneExpired(
      trx,
      new Date(now.getTime() - CLOCK_SKEW_SECONDS * 1000).toISOString(),
    );
    await recordAudit(trx, {
      at: now,
      actor: fhirClientActor(client.client_id),
      action: 'fhir_token',
      target: { type: 'fhir_client', id: client.client_id },
      address,
      detail: scope,
    });
    return true;
  });
  // A replayed assertion is a failed client authentication (RFC 6749 §5.2: invalid_client).
  if (!fresh)
    throw new OAuthError('invalid_client', "The client assertion's jti was already used.");
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    scope,
  };
}

function accessTokenHash(token: string): string {
  return crypto.hash('sha256', token, 'hex');
}

/** A FHIR client's access token as a request carries it, for the guard: who, and what it may do. */
export interface FhirClientIdentity {
  clientId: string;
  scopes: SystemScope[];
  /** The unit the client is registered for: it reads that unit's records and those below. */
  unitId: string;
}

/** The audit trail's actor for a FHIR client: `fhir-client:ID`. */
export function fhirClientActor(clientId: string): { id: null; username: string } {
  return { id: null, username: `fhir-client:${clientId}` };
}

/** Whether a bearer token is one of this endpoint's access tokens (and not an API token). */
export function isAccessToken(token: string): boolean {
  return token.startsWith(accessTokenPrefix);
}

/** The unexpired access token's client and scopes, while the client is registered; else undefined. */
export async function resolveAccessToken(
  context: AppContext,
  token: string,
): Promise<FhirClientIdentity | undefined> {
  const row = await fhirClientsRepository.findLiveAccessToken(
    context.database.db,
    accessTokenHash(token),
    context.now().toISOString(),
  );
  if (row === undefined) return undefined;
  const parsed = parseScopes(row.scope);
  return {
    clientId: row.client_id,
    scopes: 'problem' in parsed ? [] : parsed.scopes,
    unitId: row.org_unit_id,
  };
}
