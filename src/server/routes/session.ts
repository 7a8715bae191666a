import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '../../shared/api/errors.ts';
import { signInResponseSchema } from '../../shared/api/second-factor.ts';
import {
  loginBodySchema,
  sessionResponseSchema,
  sessionStatusSchema,
  signOutResponseSchema,
} from '../../shared/api/session.ts';
import {
  endSessionWithProvider,
  finishOidcSignIn,
  OidcSignInRefused,
  oidcCookieName,
  startOidcSignIn,
} from '../auth/oidc.ts';
import { AppError } from '../errors.ts';
import { login } from '../auth/login.ts';
import { secondFactorRequiredBy } from '../auth/second-factor-requirement.ts';
import { resolveSession, sessionCookieName } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { errorResponses } from './responses.ts';
import {
  clearOidcCookie,
  clearSessionCookie,
  setChallengeCookie,
  setOidcCookie,
  setSessionCookie,
} from './session-cookies.ts';
import { requireUser } from '../auth/guard.ts';
import { recordAudit } from '../services/audit.ts';

const errors = errorResponses(400, 401, 403, 413);

/**
 * The sign-in steps are open to anyone and read a name, a password or a code: a body over 16 KB
 * is refused (413) before it is parsed, rather than the 1 MB every other route takes.
 */
export const signInBodyLimit = 16 * 1024;

export function sessionRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/session',
      {
        config: { access: 'public' },
        bodyLimit: signInBodyLimit,
        schema: {
          summary:
            'Sign in; sets the HttpOnly session cookie, or asks for the second factor (POST /api/session/second-factor), or, past the grace of a factor the role requires, for setting one up (POST /api/session/second-factor/enrolment)',
          tags: ['session'],
          body: loginBodySchema,
          response: { 200: signInResponseSchema, ...errors, 429: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const result = await login(context, {
          username: request.body.username,
          password: request.body.password,
          address: request.ip,
        });
        if ('challengeId' in result) {
          setChallengeCookie(context, request, reply, result.challengeId);
          return result.purpose === 'code'
            ? { secondFactorRequired: true as const }
            : { secondFactorEnrolmentRequired: true as const };
        }
        setSessionCookie(context, request, reply, result.sessionId);
        return {
          user: result.user,
          secondFactorRequiredBy: result.secondFactorRequiredBy,
          timeZone: context.config.timeZone,
        };
      },
    );

    app.get(
      '/api/session',
      {
        config: { access: 'session' },
        schema: {
          summary:
            'The signed-in user, and when the grace of a second factor their role requires ends',
          tags: ['session'],
          response: { 200: sessionResponseSchema, 401: errorEnvelopeSchema },
        },
      },
      async (request) => {
        const user = requireUser(request);
        return {
          user,
          secondFactorRequiredBy: await secondFactorRequiredBy(context, user.id),
          timeZone: context.config.timeZone,
        };
      },
    );

    app.get(
      '/api/session/status',
      {
        // Public, so that no session is not a refusal; the cookie is read here as the guard would.
        config: { access: 'public' },
        schema: {
          summary:
            'Whether the session cookie names a live session, and if so its user (as GET /api/session); 200 either way',
          tags: ['session'],
          response: { 200: sessionStatusSchema },
        },
      },
      async (request) => {
        const sessionId = request.cookies[sessionCookieName];
        const user =
          sessionId === undefined || sessionId === ''
            ? null
            : await resolveSession(context, sessionId);
        if (user === null) {
          const { oidc, localSignIn } = context.config;
          return {
            signedIn: false as const,
            signIn: {
              oidc: oidc === undefined ? null : { displayName: oidc.displayName },
              localSignIn,
            },
          };
        }
        return {
          signedIn: true as const,
          user,
          secondFactorRequiredBy: await secondFactorRequiredBy(context, user.id),
          timeZone: context.config.timeZone,
        };
      },
    );

    app.delete(
      '/api/session',
      {
        config: { access: 'session' },
        schema: {
          summary:
            "Sign out; ends the session on the server. After a sign-in through the organisation's provider that publishes an end_session_endpoint, answers where the browser goes to sign out there too",
          tags: ['session'],
          response: {
            200: signOutResponseSchema,
            204: z.null(),
            401: errorEnvelopeSchema,
            403: errorEnvelopeSchema,
          },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const providerSignOutUrl =
          request.sessionId === null
            ? null
            : await endSessionWithProvider(context, request.sessionId);
        await recordAudit(context.database.db, {
          at: context.now(),
          actor: user,
          action: 'logout',
          target: { type: 'user', id: user.id },
          address: request.ip,
        });
        clearSessionCookie(context, request, reply);
        if (providerSignOutUrl !== null) return reply.status(200).send({ providerSignOutUrl });
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/session/oidc/start',
      {
        config: { access: 'public' },
        schema: {
          summary:
            "Begins a sign-in through the organisation's OpenID Connect provider: redirects there (authorization code with PKCE, state and nonce); 404 when none is set up",
          tags: ['session'],
          response: { 302: z.null(), 404: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const provider = context.oidcProvider;
        const settings = context.config.oidc;
        if (provider === undefined || settings === undefined) {
          throw new AppError(404, 'not_found', 'No sign-in through a provider is set up.');
        }
        const started = await startOidcSignIn(context, provider, settings);
        setOidcCookie(context, request, reply, started.bindingId);
        return reply.redirect(started.redirectTo, 302);
      },
    );

    app.get(
      '/api/session/oidc/callback',
      {
        config: { access: 'public' },
        schema: {
          summary:
            "Where the provider sends the browser back: sets the session cookie (or the second step's) and redirects to the app; a refusal redirects to the gate with ?signInError= naming the reason",
          tags: ['session'],
          querystring: z.record(z.string(), z.unknown()),
          response: { 302: z.null(), 404: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const provider = context.oidcProvider;
        const settings = context.config.oidc;
        const appUrl = context.config.publicUrl;
        if (provider === undefined || settings === undefined || appUrl === undefined) {
          throw new AppError(404, 'not_found', 'No sign-in through a provider is set up.');
        }
        const bindingId = request.cookies[oidcCookieName];
        clearOidcCookie(reply);
        const question = request.url.indexOf('?');
        let result: Awaited<ReturnType<typeof finishOidcSignIn>>;
        try {
          result = await finishOidcSignIn(context, provider, settings, {
            bindingId: bindingId === '' ? undefined : bindingId,
            query: question === -1 ? '' : request.url.slice(question),
            address: request.ip,
          });
        } catch (error) {
          if (!(error instanceof OidcSignInRefused)) throw error;
          return reply.redirect(`${appUrl}/?signInError=${error.reason}`, 302);
        }
        if ('challengeId' in result) {
          setChallengeCookie(context, request, reply, result.challengeId);
          return reply.redirect(
            `${appUrl}/?signInStep=${result.purpose === 'code' ? 'second-factor' : 'second-factor-enrolment'}`,
            302,
          );
        }
        setSessionCookie(context, request, reply, result.sessionId);
        return reply.redirect(`${appUrl}/`, 302);
      },
    );
  };
}
