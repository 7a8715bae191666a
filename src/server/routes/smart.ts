import type { FastifyError, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  oauthErrorSchema,
  oauthTokenPath,
  smartConfigurationSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from '../../shared/api/smart.ts';
import { FHIR_SCOPE_TYPES } from '../auth/fhir-scopes.ts';
import type { AppContext } from '../context.ts';
import { recordAudit } from '../services/audit.ts';
import { tokenEndpointOf } from './fhir.ts';
import {
  ASSERTION_ALGORITHMS,
  claimedClientId,
  issueAccessToken,
  OAuthError,
  type TokenRequest,
} from '../services/fhir-clients.ts';

const formType = 'application/x-www-form-urlencoded';

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  return reply
    .status(error.status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error: error.code, error_description: error.message });
}

/**
 * SMART Backend Services (issue 38): the discovery document beside the FHIR API and the OAuth 2.0
 * token endpoint of the client credentials grant. Failures of the token endpoint are OAuth error
 * answers (RFC 6749 §5.2), never the product's error envelope.
 */
export function smartRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // The token request is a form (RFC 6749 §4.4.2); a parameter given twice is refused (§3.2).
    app.addContentTypeParser(
      formType,
      { parseAs: 'string', bodyLimit: 16_384 },
      (_r, body, done) => {
        const form: Record<string, string> = {};
        for (const [name, value] of new URLSearchParams(body as string)) {
          if (Object.hasOwn(form, name)) {
            done(
              new OAuthError('invalid_request', `${name.slice(0, 50)} is given more than once.`),
            );
            return;
          }
          form[name] = value;
        }
        done(null, form);
      },
    );

    app.setErrorHandler(async (error: FastifyError | OAuthError, request, reply) => {
      const refusal =
        error instanceof OAuthError
          ? error
          : (error.statusCode ?? 500) < 500
            ? new OAuthError('invalid_request', 'The request is not a token request form.')
            : undefined;
      if (refusal === undefined) throw error;
      const claimed = claimedClientId((request.body as TokenRequest | undefined)?.client_assertion);
      await recordAudit(context.database.db, {
        at: context.now(),
        actor: null,
        action: 'fhir_token',
        ...(claimed === undefined ? {} : { target: { type: 'fhir_client', id: claimed } }),
        outcome: 'failure',
        address: request.ip,
        detail: refusal.code,
      });
      return sendOAuthError(reply, refusal);
    });

    app.get(
      '/fhir/.well-known/smart-configuration',
      {
        config: { access: 'public' },
        schema: {
          summary: 'SMART configuration: how a backend service obtains an access token',
          description: 'Public, as SMART clients read it before they authenticate.',
          tags: ['fhir'],
          response: { 200: smartConfigurationSchema },
        },
      },
      async (request) => ({
        token_endpoint: tokenEndpointOf(context, request),
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS].reverse(),
        grant_types_supported: ['client_credentials'],
        scopes_supported: ['system/*.rs', ...FHIR_SCOPE_TYPES.map((type) => `system/${type}.rs`)],
        capabilities: ['client-confidential-asymmetric'],
      }),
    );

    app.post(
      oauthTokenPath,
      {
        config: { access: 'public' },
        schema: {
          summary:
            'An access token for the FHIR API (OAuth 2.0 client credentials, SMART Backend Services)',
          description: `A form (${formType}): grant_type=client_credentials, client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer, client_assertion (a JWT signed RS384 or ES384 by the registered client: iss = sub = its client id, aud = this URL, exp at most 5 minutes ahead, a jti used once) and scope (system/Type.rs, within the client's). The token lives 300 seconds.`,
          tags: ['fhir'],
          body: tokenRequestSchema,
          response: { 200: tokenResponseSchema, 400: oauthErrorSchema, 401: oauthErrorSchema },
        },
      },
      async (request, reply) => {
        if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith(formType)) {
          throw new OAuthError('invalid_request', `The request must be a form (${formType}).`);
        }
        const answer = await issueAccessToken(
          context,
          request.body,
          tokenEndpointOf(context, request),
          request.ip,
        );
        return reply.header('pragma', 'no-cache').send(answer);
      },
    );
  };
}
