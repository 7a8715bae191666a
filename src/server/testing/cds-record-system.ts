import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/**
 * A stand-in for a clinic's record system in tests: its own ES384 and RS384 key pairs, a JWK Set
 * it serves, a FHIR server it answers from, and the JWTs it signs its CDS Hooks calls with.
 */
export interface SigningKey {
  alg: 'ES384' | 'RS384';
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function makeSigningKey(alg: 'ES384' | 'RS384', kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { alg, kid, privateKey, publicJwk };
}

export interface TokenOptions {
  issuer: string;
  audience: string;
  /** Seconds since the epoch: the app's clock, not the machine's. */
  now: number;
  expiresIn?: number;
  jti?: string;
  /** The `iat`, in seconds since the epoch; `now` unless given. */
  issuedAt?: number;
  header?: Record<string, unknown>;
  /** Leave claims out. */
  without?: Array<'exp' | 'jti' | 'iat'>;
}

export async function signCall(key: SigningKey, options: TokenOptions): Promise<string> {
  const without = new Set(options.without ?? []);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...options.header })
    .setIssuer(options.issuer)
    .setAudience(options.audience);
  if (!without.has('iat')) jwt.setIssuedAt(options.issuedAt ?? options.now);
  if (!without.has('exp')) jwt.setExpirationTime(options.now + (options.expiresIn ?? 120));
  if (!without.has('jti')) jwt.setJti(options.jti ?? crypto.randomUUID());
  return jwt.sign(key.privateKey);
}

export interface FhirRequestSeen {
  path: string;
  authorization: string | undefined;
}

export interface FhirAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A small HTTP server: the JWK Set at /jwks.json, FHIR resources under /fhir by path and query.
 * It counts every FHIR request it is asked (`seen`), and answers what a test set: resources,
 * searches in pages, error statuses, OperationOutcomes, redirects, or nothing at all.
 */
export class StandInServer {
  readonly seen: FhirRequestSeen[] = [];
  jwks: { keys: JWK[] } = { keys: [] };
  /** Paths the server never answers, as a FHIR server that hangs. */
  readonly hanging = new Set<string>();
  /** FHIR answers by path with query (`Patient/p1`, `Condition?patient=p1&...`). */
  readonly fhir = new Map<string, FhirAnswer>();
  private server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (url === '/jwks.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(this.jwks));
      return;
    }
    const path = decodeURIComponent(url.replace(/^\/fhir\//, ''));
    this.seen.push({ path, authorization: request.headers.authorization });
    if (this.hanging.has(path)) return;
    const answer = this.fhir.get(path) ?? {
      status: 404,
      body: { resourceType: 'OperationOutcome' },
    };
    response.writeHead(answer.status, {
      'content-type': 'application/fhir+json',
      ...answer.headers,
    });
    response.end(JSON.stringify(answer.body));
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  /**
   * Serves a search's resources in pages of `perPage` at `path`, then `path&_page=2`, ...; each
   * page but the last links the next by `nextBase` (this server's /fhir unless given).
   */
  servePages(path: string, resources: unknown[], perPage: number, nextBase?: string): string[] {
    const paths: string[] = [];
    const pageCount = Math.max(1, Math.ceil(resources.length / perPage));
    const pathOf = (page: number) => (page === 1 ? path : `${path}&_page=${page}`);
    for (let page = 1; page <= pageCount; page++) {
      const bundle = searchset(resources.slice((page - 1) * perPage, page * perPage)) as {
        link?: unknown[];
      };
      if (page < pageCount) {
        bundle.link = [
          { relation: 'next', url: `${nextBase ?? `${this.origin}/fhir`}/${pathOf(page + 1)}` },
        ];
      }
      this.fhir.set(pathOf(page), { status: 200, body: bundle });
      paths.push(pathOf(page));
    }
    return paths;
  }

  /** The FHIR requests asked so far, and forgets them. */
  takeSeen(): string[] {
    return this.seen.splice(0).map((request) => request.path);
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** An OperationOutcome as a FHIR server answers a failure with. */
export function operationOutcome(code = 'forbidden'): unknown {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code, diagnostics: 'The request could not be completed.' }],
  };
}

/** A searchset Bundle of resources. */
export function searchset(resources: unknown[]): unknown {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: resources.map((resource) => ({ resource })),
  };
}
