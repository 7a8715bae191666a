import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTVerifyGetKey,
  type JSONWebKeySet,
} from 'jose';
import type { AppContext } from '../context.ts';
import { cdsClientsRepository, type CdsClientRow } from '../db/repositories/cds-clients.ts';
import { AppError } from '../errors.ts';
import { CDS_ALGORITHMS, REMOTE_TIMEOUT_MS } from '../services/cds-clients.ts';

/**
 * The CDS Hooks security of a call (issue 20; the specification's "Trusting CDS Clients"): a
 * JWT signed ES384 or RS384 by a registered client, checked against that client's JWK Set, whose
 * `aud` is this service's URL, whose `exp` is at most five minutes ahead, whose `iat` is not
 * ahead of our clock, and whose `jti` has not been used: it is spent here, before the call reads
 * anything, and kept until no clock skew could let the token pass again (issue 33).
 */

/** How far the record system's clock may be from ours. */
export const CLOCK_SKEW_SECONDS = 30;
/** The furthest ahead a token may expire (the specification's five minutes). */
export const MAX_LIFETIME_SECONDS = 5 * 60;
const MAX_JTI_LENGTH = 255;

/** A refused call: 401, with the `iss` it claimed (if any) for the audit row's detail. */
export class CdsRefusal extends AppError {
  readonly claimedIssuer: string | undefined;
  constructor(message: string, claimedIssuer?: string) {
    super(401, 'unauthenticated', message);
    this.claimedIssuer = claimedIssuer;
  }
}

export interface VerifiedClient {
  client: CdsClientRow;
  issuer: string;
}

/**
 * Remote key sets by URL, kept across calls: jose caches the keys and re-reads the URL when a
 * token names a key it does not have (at most once every 30 seconds).
 */
const remoteKeySets = new Map<string, JWTVerifyGetKey>();

function keySetOf(client: CdsClientRow): JWTVerifyGetKey {
  if (client.jwks !== null) return createLocalJWKSet(JSON.parse(client.jwks) as JSONWebKeySet);
  const url = client.jwks_url ?? '';
  let keySet = remoteKeySets.get(url);
  if (keySet === undefined) {
    keySet = createRemoteJWKSet(new URL(url), { timeoutDuration: REMOTE_TIMEOUT_MS });
    remoteKeySets.set(url, keySet);
  }
  return keySet;
}

/** Why jose refused a token, in words a record system's administrator can act on. */
function refusalOf(error: unknown, audience: string, issuer: string): CdsRefusal {
  if (error instanceof errors.JWTExpired) return new CdsRefusal('The JWT has expired.', issuer);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') {
      return new CdsRefusal(`The JWT's aud is not this service's URL, ${audience}.`, issuer);
    }
    return new CdsRefusal(`The JWT's ${error.claim} claim is missing or not valid.`, issuer);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new CdsRefusal("The JWT's signature does not verify with the client's keys.", issuer);
  }
  if (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return new CdsRefusal(
      "No single key of the client's JWK Set matches the JWT's kid and alg.",
      issuer,
    );
  }
  if (error instanceof errors.JWKSTimeout) {
    return new CdsRefusal("The client's JWK Set URL did not answer in time.", issuer);
  }
  if (error instanceof errors.JOSEError) {
    return new CdsRefusal(`The JWT could not be verified (${error.code}).`, issuer);
  }
  return new CdsRefusal('The JWT could not be verified.', issuer);
}

/**
 * Verifies the call's `Authorization: Bearer` JWT for `audience` (this service's URL) and spends
 * its `jti`: of two calls with one token, racing or late, one gets past here. Throws a
 * CdsRefusal (401) naming the fault.
 */
export async function verifyCdsClient(
  context: AppContext,
  authorization: string | undefined,
  audience: string,
): Promise<VerifiedClient> {
  const token = /^Bearer +([A-Za-z0-9._-]+) *$/i.exec(authorization ?? '')?.[1];
  if (token === undefined) {
    throw new CdsRefusal('The call carries no Authorization: Bearer JWT.');
  }
  let algorithm: string | undefined;
  let kid: string | undefined;
  let jku: string | undefined;
  let claimedIssuer: unknown;
  try {
    const header = decodeProtectedHeader(token);
    algorithm = header.alg;
    kid = header.kid;
    jku = header.jku;
    claimedIssuer = decodeJwt(token).iss;
  } catch {
    throw new CdsRefusal('The bearer token is not a JWT.');
  }
  if (typeof claimedIssuer !== 'string' || claimedIssuer === '') {
    throw new CdsRefusal('The JWT has no iss.');
  }
  const issuer = claimedIssuer.slice(0, 500);
  if (!(CDS_ALGORITHMS as readonly (string | undefined)[]).includes(algorithm)) {
    throw new CdsRefusal(
      `The JWT is signed ${String(algorithm)}; only ES384 and RS384 are accepted.`,
      issuer,
    );
  }
  if (typeof kid !== 'string' || kid === '')
    throw new CdsRefusal('The JWT header has no kid.', issuer);
  const client = await cdsClientsRepository.findLive(context.database.db, claimedIssuer);
  if (client === undefined)
    throw new CdsRefusal('The JWT issuer is not a registered client.', issuer);
  if (jku !== undefined && jku !== client.jwks_url) {
    throw new CdsRefusal("The JWT's jku is not the client's registered JWK Set URL.", issuer);
  }

  const now = context.now();
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keySetOf(client), {
      algorithms: [...CDS_ALGORITHMS],
      issuer: claimedIssuer,
      audience,
      requiredClaims: ['exp', 'iat', 'jti'],
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: now,
    }));
  } catch (error) {
    throw refusalOf(error, audience, issuer);
  }
  const nowSeconds = now.getTime() / 1000;
  const exp = payload.exp ?? 0;
  if (exp > nowSeconds + MAX_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) {
    throw new CdsRefusal('The JWT expires more than 5 minutes from now.', issuer);
  }
  // jose checks iat against the clock only with maxTokenAge: a token minted ahead is refused here.
  if ((payload.iat ?? 0) > nowSeconds + CLOCK_SKEW_SECONDS) {
    throw new CdsRefusal("The JWT's iat is in the future.", issuer);
  }
  const jti: unknown = payload.jti;
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) {
    throw new CdsRefusal(`The JWT's jti must be 1 to ${MAX_JTI_LENGTH} characters.`, issuer);
  }
  // Kept while jose would still accept the token (until exp plus the skew), then pruned.
  const fresh = await context.database.transaction(async (trx) => {
    const spent = await cdsClientsRepository.useJti(
      trx,
      claimedIssuer,
      jti,
      new Date(exp * 1000).toISOString(),
    );
    await cdsClientsRepository.pruneJtis(
      trx,
      new Date(now.getTime() - CLOCK_SKEW_SECONDS * 1000).toISOString(),
    );
    return spent;
  });
  if (!fresh) throw new CdsRefusal("The JWT's jti was already used.", issuer);
  return { client, issuer: claimedIssuer };
}
