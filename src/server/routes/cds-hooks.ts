import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cdsDiscoverySchema,
  cdsRequestSchema,
  cdsResponseSchema,
} from '../../shared/api/cds-hooks.ts';
import { CDS_SERVICE_ID } from '../cds/service-definition.ts';
import type { AppContext } from '../context.ts';
import type { VerifiedClient } from '../cds/client-auth.ts';
import { CdsFailureAudit } from '../services/cds-failure-audit.ts';
import {
  auditUnreadCall,
  authenticateCdsCall,
  callCdsService,
  cdsDiscovery,
} from '../services/cds-hooks.ts';
import { errorResponses } from './responses.ts';

const tags = ['cds-hooks'];

/**
 * CORS as a browser-based record system needs it (the CDS Hooks specification defers to OWASP's
 * advice): any origin, no credentials (calls carry a JWT, never a cookie), the two methods and
 * the two request headers a call uses.
 */
const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-expose-headers': 'WWW-Authenticate',
  'access-control-max-age': '600',
};

/** The product's base URL: PUBLIC_URL, else the protocol and host the request came with. */
function baseUrlOf(context: AppContext, request: FastifyRequest): string {
  return context.config.publicUrl ?? `${request.protocol}://${request.host}`;
}

export function cdsHooksRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const failures = new CdsFailureAudit(context);
    app.addHook('onClose', async () => failures.writeAll());

    // Encapsulated: these headers are on this plugin's answers only, errors included.
    app.addHook('onRequest', async (_request, reply) => {
      void reply.headers({ ...corsHeaders, 'cache-control': 'no-store' });
    });
    // RFC 6750: a 401 says which scheme would be accepted.
    app.addHook('onSend', async (_request, reply) => {
      if (reply.statusCode === 401) void reply.header('www-authenticate', 'Bearer');
    });

    app.get(
      '/cds-services',
      {
        config: { access: 'public' },
        schema: {
          summary: 'CDS Hooks discovery: the chronic disease risk service and what it prefetches',
          tags,
          response: { 200: cdsDiscoverySchema },
        },
      },
      () => cdsDiscovery(),
    );

    // A call refused before its handler ran and after its JWT (a body that is not JSON, too
    // large, or holds a NUL) is audited here; the service audits the JWT's refusal and every
    // call that reaches the handler.
    const handled = new WeakSet<FastifyRequest>();
    const verifiedCalls = new WeakMap<FastifyRequest, VerifiedClient>();
    app.addHook('onSend', async (request, reply) => {
      if (request.method !== 'POST' || handled.has(request) || reply.statusCode < 400) return;
      try {
        await auditUnreadCall(failures, request.ip, verifiedCalls.get(request), reply.statusCode);
      } catch (error) {
        request.log.warn({ err: (error as Error).name }, 'a refused CDS call could not be audited');
      }
    });

    app.post(
      `/cds-services/${CDS_SERVICE_ID}`,
      {
        config: { access: 'cds-client' },
        // The JWT is verified (and its jti spent) before the body is read: a caller without a
        // valid token gets nothing parsed, however large or malformed its body.
        onRequest: async (request) => {
          try {
            verifiedCalls.set(
              request,
              await authenticateCdsCall(context, failures, {
                base: baseUrlOf(context, request),
                authorization: request.headers.authorization,
                address: request.ip,
              }),
            );
          } catch (error) {
            handled.add(request);
            throw error;
          }
        },
        // The service reports a bad body, audited as a failed call.
        attachValidation: true,
        schema: {
          summary: 'CDS Hooks patient-view call: cards for the conditions at High or Moderate risk',
          description:
            "Authorization: Bearer JWT of a registered client (ES384 or RS384; aud this URL; exp at most 5 minutes ahead; iat not ahead; jti used once), verified before the body is read. A prefetch key left out, an OperationOutcome, or a Bundle with more pages is read whole from fhirServer (which must be under one registered for the client) with fhirAuthorization's token, else the call is a 412. Audited as cds_call.",
          tags,
          body: cdsRequestSchema,
          response: { 200: cdsResponseSchema, ...errorResponses(400, 401, 412) },
        },
      },
      async (request) => {
        handled.add(request);
        const verified = verifiedCalls.get(request);
        if (verified === undefined) throw new Error('The CDS call reached its handler unverified.');
        return callCdsService(context, failures, verified, {
          base: baseUrlOf(context, request),
          body: request.body,
          address: request.ip,
        });
      },
    );

    for (const url of ['/cds-services', `/cds-services/${CDS_SERVICE_ID}`]) {
      app.options(
        url,
        { config: { access: 'public' }, schema: { hide: true } },
        async (_request, reply) => reply.status(204).send(),
      );
    }
  };
}
