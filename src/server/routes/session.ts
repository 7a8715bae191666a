import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '../../shared/api/errors.ts';
import { signInResponseSchema } from '../../shared/api/second-factor.ts';
import {
  loginBodySchema,
  sessionResponseSchema,
  sessionStatusSchema,
} from '../../shared/api/session.ts';
import { login } from '../auth/login.ts';
import { secondFactorRequiredBy } from '../auth/second-factor-requirement.ts';
import { endSession, resolveSession, sessionCookieName } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { errorResponses } from './responses.ts';
import { setChallengeCookie, setSessionCookie } from './session-cookies.ts';
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
        if (user === null) return { signedIn: false as const };
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
          summary: 'Sign out; ends the session on the server',
          tags: ['session'],
          response: { 204: z.null(), 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        if (request.sessionId !== null) await endSession(context, request.sessionId);
        await recordAudit(context.database.db, {
          at: context.now(),
          actor: user,
          action: 'logout',
          target: { type: 'user', id: user.id },
          address: request.ip,
        });
        void reply.clearCookie(sessionCookieName, { path: '/' });
        return reply.status(204).send(null);
      },
    );
  };
}
