import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bulkExportRoutePatterns, bulkExportRoutes } from '../../shared/api/fhir-bulk.ts';
import type { SessionUser } from '../../shared/api/session.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { isMetricsToken } from '../metrics.ts';
import { resolveApiToken, type ApiTokenIdentity } from '../services/api-tokens.ts';
import { recordAudit } from '../services/audit.ts';
import {
  allowedIssuer,
  framingOrigin,
  smartLaunchCookieName,
  smartLaunchPath,
} from '../services/smart-launch.ts';
import {
  isAccessToken,
  resolveAccessToken,
  type FhirClientIdentity,
} from '../services/fhir-clients.ts';
import { allows } from './fhir-scopes.ts';
import { can, type Action } from './policy.ts';
import type { Requester } from './requester.ts';
import { narrowScope, scopeOfUnits, scopeOfUser, type Scope } from './scope.ts';
import { resolveSession, sessionCookieName } from './sessions.ts';

/**
 * What a route needs: nothing (`public`), any signed-in user (`session`), an action's roles, or
 * a registered record system's signed JWT (`cds-client`), which the CDS Hooks service checks
 * itself; such a request carries no cookie, so a cross-site call (CORS) forges nothing.
 */
export type Access = 'public' | 'session' | 'cds-client' | Action;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * `read`: the route also admits an API token (`Authorization: Bearer`) in place of a
     * session. Only GET routes of the FHIR API may say so; on every other route a token is not
     * looked at.
     */
    apiToken?: 'read';
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionId: string | null;
    /** The API token that made the request, on a route that admits one and had no session. */
    apiToken: ApiTokenIdentity | null;
    /**
     * The FHIR client whose access token (SMART Backend Services) made the request, on a route
     * that admits API tokens and had no session.
     */
    fhirClient: FhirClientIdentity | null;
    /**
     * The units whose records the request may reach, built once by the guard after it knows who
     * asks (see scope.ts); null on a route that names no caller.
     */
    scope: Scope | null;
  }
}

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The API documentation pages are registered by a plugin and are public like the document. */
const documentationRoot = '/api/docs';

/**
 * Refuses a state-changing request that a browser says came from another site. Requests without
 * either header come from programs, not browsers, and cannot carry a victim's cookie by forgery.
 */
function checkSameOrigin(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none') return;
    throw new AppError(403, 'forbidden', 'Cross-site requests are not allowed.');
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (origin !== `${request.protocol}://${request.host}`) {
    throw new AppError(403, 'forbidden', 'Cross-site requests are not allowed.');
  }
}

export function requireUser(request: FastifyRequest): SessionUser {
  if (request.user === null) {
    throw new AppError(401, 'unauthenticated', 'Please sign in to continue.');
  }
  return request.user;
}

/** Who makes a request: the signed-in user and the address, as services and the audit need. */
export function requesterOf(request: FastifyRequest): Requester {
  return { user: requireUser(request), address: request.ip, scope: scopeOf(request) };
}

/** The request's scope; a route that reaches clinical rows always has one after the guard. */
export function scopeOf(request: FastifyRequest): Scope {
  if (request.scope === null) {
    throw new Error(`Route ${request.routeOptions.url ?? ''} reads a scope it was never given`);
  }
  return request.scope;
}

/** Throws 403 unless the signed-in user's role may perform the action. */
export function authorize(request: FastifyRequest, action: Action): SessionUser {
  const user = requireUser(request);
  if (!can(user.role, action)) {
    throw new AppError(403, 'forbidden', 'You do not have permission to do this.');
  }
  return user;
}

/**
 * Whether a route pattern (as registered, never as a request spelled it) belongs to the API: the
 * product's own (`/api`) or the FHIR read API (`/fhir`).
 */
function isApiRoute(pattern: string | undefined): boolean {
  return (
    pattern !== undefined &&
    ['/api', '/fhir'].some((root) => pattern === root || pattern.startsWith(`${root}/`))
  );
}

/**
 * Whether a FHIR client's scopes allow the route: `/fhir/{Type}/:id` reads (`r`), `/fhir/{Type}`
 * and `/fhir/{Type}/_search` search (`s`). A route whose pattern names no resource type this way
 * is refused to an access token, until a scope is defined for it. The bulk export's routes are
 * let through: its service exports only the types the scopes let the client read and search.
 */
function scopeAllows(client: FhirClientIdentity, pattern: string | undefined): boolean {
  // A bulk export's types are parameters: the service checks them against the scopes.
  if (pattern !== undefined && bulkExportRoutePatterns.has(pattern)) return true;
  const [, root, type = '', part, ...rest] = (pattern ?? '').split('/');
  if (root !== 'fhir' || !/^[A-Z][A-Za-z]*$/.test(type) || rest.length > 0) return false;
  if (part === undefined || part === '_search') return allows(client.scopes, type, 's');
  return part === ':id' && allows(client.scopes, type, 'r');
}

/** The token of an `Authorization: Bearer` header, if the request has one. */
function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * The origin that may frame the app's pages: a record system that launched the app in this
 * browser (its launch cookie), or names itself as an allowed issuer at `/smart/launch`; else none.
 */
async function framingOriginOf(
  context: AppContext,
  request: FastifyRequest,
): Promise<string | undefined> {
  const settings = context.config.smart;
  if (settings === undefined) return undefined;
  if (request.routeOptions.url === smartLaunchPath) {
    const iss = (request.query as Record<string, unknown> | undefined)?.iss;
    const issuer = typeof iss === 'string' ? allowedIssuer(settings, iss) : undefined;
    if (issuer !== undefined) return new URL(issuer).origin;
  }
  return framingOrigin(context, request.cookies[smartLaunchCookieName]);
}

function securityHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  framing: string | undefined,
): void {
  reply.header(
    'content-security-policy',
    [
      "default-src 'self'",
      "script-src 'self'",
      // Mantine sets styles at run time (CSS variables and style attributes).
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "font-src 'self' data:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      // A record system that launched the app shows it in its chart, in a frame.
      `frame-ancestors ${framing ?? "'none'"}`,
    ].join('; '),
  );
  reply.header('x-content-type-options', 'nosniff');
  if (framing === undefined) reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  if (request.protocol === 'https') {
    reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  }
  // Only the web app's files may be cached; an answer from the API, or to a request that matched
  // no route, never is.
  const pattern = request.routeOptions.url;
  if (pattern === undefined || isApiRoute(pattern)) reply.header('cache-control', 'no-store');
}

/**
 * The scope of the request's caller (a user, an API token or a FHIR client), narrowed by `?unit=`
 * when the query names one. Read before the route's schema, so that every route takes the same
 * parameter the same way.
 */
async function requestScope(context: AppContext, request: FastifyRequest): Promise<Scope> {
  const db = context.database.db;
  // A token or client reaches the unit it is registered for and those below; none, nothing.
  const client = request.apiToken ?? request.fhirClient;
  const scope =
    request.user !== null
      ? await scopeOfUser(db, request.user.id)
      : await scopeOfUnits(db, client === null ? [] : [client.unitId]);
  const unit = (request.query as Record<string, unknown> | undefined)?.unit;
  return typeof unit === 'string' && unit !== '' ? narrowScope(db, scope, unit) : scope;
}

/**
 * Access is decided from the route the router matched, never from the request's URL text: the
 * router decodes and matches a path that a prefix test on the raw text would misread
 * (`/%61pi/users` is `/api/users`). Every route carries its access from registration on; a
 * request that matched no route has none and is answered 404 by the not-found handler.
 */
export function installGuard(app: FastifyInstance, context: AppContext): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('apiToken', null);
  app.decorateRequest('fhirClient', null);
  app.decorateRequest('scope', null);

  // Secure by default: an API route that does not say who may use it stops the start. The web
  // app's files and the API documentation pages (registered by plugins) are public.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.config?.apiToken !== undefined) {
      // A FHIR search by POST (`/fhir/{type}/_search`, its parameters as a form) reads too.
      const search = /^\/fhir\/[A-Za-z]+\/_search$/.test(route.url);
      // A bulk export's status address also takes DELETE: its caller cancels their own job.
      const bulkStatus = route.url === bulkExportRoutes.status;
      if (
        methods.some(
          (m) =>
            m !== 'GET' &&
            m !== 'HEAD' &&
            !(search && m === 'POST') &&
            !(bulkStatus && m === 'DELETE'),
        )
      ) {
        throw new Error(
          `Route ${methods.join(',')} ${route.url} admits API tokens but is not a read`,
        );
      }
      // API tokens are for other systems reading FHIR, and for nothing else.
      if (route.url !== '/fhir' && !route.url.startsWith('/fhir/')) {
        throw new Error(`Route ${route.url} admits API tokens but is not a FHIR read`);
      }
    }
    if (route.config?.access !== undefined) return;
    const documentation =
      route.url === documentationRoot || route.url.startsWith(`${documentationRoot}/`);
    if (isApiRoute(route.url) && !documentation) {
      throw new Error(`API route ${route.method.toString()} ${route.url} declares no access rule`);
    }
    route.config = { ...route.config, access: 'public' };
  });

  app.addHook('onRequest', async (request, reply) => {
    securityHeaders(request, reply, await framingOriginOf(context, request));
    const access = request.routeOptions.config.access;
    if (access === 'cds-client') return;
    if (access === undefined || access === 'public') {
      if (access === 'public' && stateChanging.has(request.method)) checkSameOrigin(request);
      return;
    }

    const sessionId = request.cookies[sessionCookieName];
    if (sessionId !== undefined && sessionId !== '') {
      request.user = await resolveSession(context, sessionId);
      request.sessionId = request.user === null ? null : sessionId;
    }
    const metricsToken = request.routeOptions.config.metricsToken === true;
    if (metricsToken && isMetricsToken(context, request.headers.authorization)) return;
    if (stateChanging.has(request.method)) checkSameOrigin(request);
    if (request.user === null && request.routeOptions.config.apiToken === 'read') {
      const token = bearerToken(request);
      if (token !== undefined && isAccessToken(token)) {
        request.fhirClient = (await resolveAccessToken(context, token)) ?? null;
        if (request.fhirClient === null) {
          throw new AppError(
            401,
            'unauthenticated',
            'The access token is not valid or has expired.',
          );
        }
        if (!scopeAllows(request.fhirClient, request.routeOptions.url)) {
          throw new AppError(
            403,
            'forbidden',
            "The access token's scope does not allow this read.",
          );
        }
        request.scope = await requestScope(context, request);
        return;
      }
      if (token !== undefined) {
        request.apiToken = (await resolveApiToken(context, token)) ?? null;
        if (request.apiToken === null) {
          throw new AppError(401, 'unauthenticated', 'The API token is not valid.');
        }
        request.scope = await requestScope(context, request);
        return;
      }
    }
    if (access === 'session') requireUser(request);
    else authorize(request, access);
    request.scope = await requestScope(context, request);
  });

  // A change refused for want of permission, here or by a service's resource rule, is audited:
  // who tried which route (its pattern, which carries no patient data), and when.
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode !== 403 || !stateChanging.has(request.method)) return;
    try {
      await recordAudit(context.database.db, {
        at: context.now(),
        actor: request.user,
        action: 'access_denied',
        target: { type: 'route', id: `${request.method} ${request.routeOptions.url ?? ''}` },
        outcome: 'failure',
        address: request.ip,
      });
    } catch (error) {
      // The refusal stands; the database being away must not turn it into another answer.
      request.log.warn({ err: (error as Error).name }, 'a refused change could not be audited');
    }
  });
}
