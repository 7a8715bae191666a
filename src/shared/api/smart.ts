import { z } from 'zod';

/**
 * SMART Backend Services (SMART App Launch 2.x): the discovery document and the OAuth 2.0 token
 * endpoint of the client credentials grant, authenticated with a signed JWT.
 */

/** The OAuth 2.0 token endpoint's path, under the product's public base URL. */
export const oauthTokenPath = '/api/oauth/token';

export const smartConfigurationSchema = z.object({
  token_endpoint: z.string(),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  token_endpoint_auth_signing_alg_values_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  capabilities: z.array(z.string()),
});
export type SmartConfiguration = z.infer<typeof smartConfigurationSchema>;

/** The token request's form; each field is checked by the service, which names the OAuth error. */
export const tokenRequestSchema = z.object({
  grant_type: z.string().optional(),
  client_assertion_type: z.string().optional(),
  client_assertion: z.string().optional(),
  scope: z.string().optional(),
});

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number(),
  scope: z.string(),
});

/** An OAuth 2.0 error answer (RFC 6749 §5.2). */
export const oauthErrorSchema = z.object({
  error: z.string(),
  error_description: z.string(),
});
