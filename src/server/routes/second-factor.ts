import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/api/errors.ts';
import {
  recoveryCodesSchema,
  secondFactorCodeSchema,
  secondFactorEnrolmentSchema,
  secondFactorStatusSchema,
  signInEnrolmentConfirmedSchema,
} from '../../shared/api/second-factor.ts';
import { sessionResponseSchema } from '../../shared/api/session.ts';
import { challengeCookieName } from '../auth/challenges.ts';
import { requesterOf, requireUser } from '../auth/guard.ts';
import {
  answerChallenge,
  confirmEnrolmentAtSignIn,
  startEnrolmentAtSignIn,
} from '../auth/second-factor.ts';
import type { AppContext } from '../context.ts';
import {
  confirmEnrolment,
  secondFactorStatus,
  startEnrolment,
} from '../services/second-factors.ts';
import { errorResponses } from './responses.ts';
import { clearChallengeCookie, setSessionCookie } from './session-cookies.ts';
import { signInBodyLimit } from './session.ts';

export function secondFactorRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/session/second-factor',
      {
        // Public like the password step: the challenge cookie, not a session, says who answers.
        config: { access: 'public' },
        bodyLimit: signInBodyLimit,
        schema: {
          summary:
            'Sign-in’s second step: a code from the authenticator app or a recovery code; sets the session cookie',
          tags: ['session'],
          body: secondFactorCodeSchema,
          response: {
            200: sessionResponseSchema,
            ...errorResponses(400, 401, 403),
            429: errorEnvelopeSchema,
          },
        },
      },
      async (request, reply) => {
        const { sessionId, user, secondFactorRequiredBy } = await answerChallenge(context, {
          challengeId: request.cookies[challengeCookieName],
          code: request.body.code,
          address: request.ip,
        });
        clearChallengeCookie(reply);
        setSessionCookie(context, request, reply, sessionId);
        return { user, secondFactorRequiredBy, timeZone: context.config.timeZone };
      },
    );

    // Enrolment at sign-in, past the grace of a factor the user's role requires: the challenge
    // of the password step (sent to /api/session alone) admits these two routes and no other.
    app.post(
      '/api/session/second-factor/enrolment',
      {
        config: { access: 'public' },
        bodyLimit: signInBodyLimit,
        schema: {
          summary:
            'At sign-in, when the role requires a second factor: a new TOTP secret, its otpauth URI and QR code',
          tags: ['session'],
          response: {
            200: secondFactorEnrolmentSchema,
            ...errorResponses(401, 403, 409),
          },
        },
      },
      async (request) =>
        startEnrolmentAtSignIn(context, {
          challengeId: request.cookies[challengeCookieName],
          address: request.ip,
        }),
    );

    app.post(
      '/api/session/second-factor/confirmation',
      {
        config: { access: 'public' },
        bodyLimit: signInBodyLimit,
        schema: {
          summary:
            'At sign-in, confirm the new second factor with a code; sets the session cookie and answers the ten recovery codes, once',
          tags: ['session'],
          body: secondFactorCodeSchema,
          response: {
            200: signInEnrolmentConfirmedSchema,
            ...errorResponses(400, 401, 403, 409),
            429: errorEnvelopeSchema,
          },
        },
      },
      async (request, reply) => {
        const signedIn = await confirmEnrolmentAtSignIn(context, {
          challengeId: request.cookies[challengeCookieName],
          code: request.body.code,
          address: request.ip,
        });
        clearChallengeCookie(reply);
        setSessionCookie(context, request, reply, signedIn.sessionId);
        return {
          user: signedIn.user,
          secondFactorRequiredBy: signedIn.secondFactorRequiredBy,
          timeZone: context.config.timeZone,
          recoveryCodes: signedIn.recoveryCodes,
        };
      },
    );

    app.get(
      '/api/account/second-factor',
      {
        config: { access: 'session' },
        schema: {
          summary: 'Whether the signed-in user has a second factor, and recovery codes left',
          tags: ['session'],
          response: { 200: secondFactorStatusSchema, ...errorResponses(401) },
        },
      },
      async (request) => secondFactorStatus(context, requireUser(request)),
    );

    app.post(
      '/api/account/second-factor/enrolment',
      {
        config: { access: 'session' },
        schema: {
          summary: 'Begin a second factor: a new TOTP secret, its otpauth URI and QR code',
          tags: ['session'],
          response: { 200: secondFactorEnrolmentSchema, ...errorResponses(401, 403, 409) },
        },
      },
      async (request) => startEnrolment(context, requesterOf(request)),
    );

    app.post(
      '/api/account/second-factor/confirmation',
      {
        config: { access: 'session' },
        schema: {
          summary: 'Confirm the second factor with a code; answers the ten recovery codes, once',
          tags: ['session'],
          body: secondFactorCodeSchema,
          response: { 200: recoveryCodesSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request) => confirmEnrolment(context, requesterOf(request), request.body.code),
    );
  };
}
