import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '../../shared/api/errors.ts';
import {
  smartLaunchSchema,
  smartWriteBackBodySchema,
  smartWriteBackResultSchema,
} from '../../shared/api/smart-launch.ts';
import { requesterOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import {
  finishSmartLaunch,
  getSmartLaunch,
  smartCallbackPath,
  smartLaunchCookieName,
  SmartLaunchRefused,
  smartLaunchPath,
  startSmartLaunch,
  writeBackAssessment,
} from '../services/smart-launch.ts';
import { errorResponses } from './responses.ts';
import { setSmartLaunchCookie } from './session-cookies.ts';

const launchQuerySchema = z.object({
  iss: z.string().max(2000).optional(),
  launch: z.string().max(4000).optional(),
});

const callbackQuerySchema = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** A refused launch: a page of its own, as the wizard never opened. */
function refusalPage(reply: FastifyReply, refusal: SmartLaunchRefused): FastifyReply {
  return reply
    .status(refusal.status)
    .type('text/html; charset=utf-8')
    .send(
      [
        '<!doctype html>',
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<title>Cannot open from the record</title></head>',
        '<body style="font-family: system-ui, sans-serif; margin: 2rem; max-width: 40rem">',
        '<main><h1>Cannot open from the record</h1>',
        `<p role="alert">${escapeHtml(refusal.message)}</p></main>`,
        '</body></html>',
      ].join('\n'),
    );
}

function notSetUp(): AppError {
  return new AppError(404, 'not_found', 'Launching from a record system is not set up.');
}

export function smartLaunchRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      smartLaunchPath,
      {
        config: { access: 'public' },
        schema: {
          summary:
            "EHR launch as a SMART app: an allowed issuer's launch redirects to its authorization server (PKCE, state); any other is refused with a page saying why",
          tags: ['smart-app'],
          querystring: launchQuerySchema,
          response: { 302: z.null(), 404: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const settings = context.config.smart;
        if (settings === undefined) throw notSetUp();
        try {
          const started = await startSmartLaunch(
            context,
            settings,
            { request: request.raw, response: reply.raw },
            { iss: request.query.iss, launch: request.query.launch, address: request.ip },
          );
          setSmartLaunchCookie(context, request, reply, started.bindingId);
          return await reply.redirect(started.redirectTo, 302);
        } catch (error) {
          if (error instanceof SmartLaunchRefused) return refusalPage(reply, error);
          throw error;
        }
      },
    );

    app.get(
      smartCallbackPath,
      {
        config: { access: 'public' },
        schema: {
          summary:
            "Where the record's authorization server sends the browser back: the code is exchanged for the token and the patient in context, then the wizard opens (/assessments/new?launch=ID)",
          tags: ['smart-app'],
          querystring: callbackQuerySchema,
          response: { 302: z.null(), 404: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const appUrl = context.config.publicUrl;
        if (context.config.smart === undefined || appUrl === undefined) throw notSetUp();
        try {
          const launchId = await finishSmartLaunch(
            context,
            { request: request.raw, response: reply.raw },
            {
              bindingId: request.cookies[smartLaunchCookieName],
              state: request.query.state,
              error: request.query.error,
              address: request.ip,
            },
          );
          return await reply.redirect(
            `${appUrl}/assessments/new?launch=${encodeURIComponent(launchId)}`,
            302,
          );
        } catch (error) {
          if (error instanceof SmartLaunchRefused) return refusalPage(reply, error);
          throw error;
        }
      },
    );

    app.get(
      '/api/smart/launches/:id',
      {
        config: { access: 'assessment.create' },
        schema: {
          summary:
            "A launch of this browser from a record system, taken up by the signed-in user: the record's values for the wizard (each with its date, filled or too old), what could not be read, and whether the result goes back into the record",
          tags: ['smart-app'],
          params: z.object({ id: z.string().max(100) }),
          response: { 200: smartLaunchSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) =>
        getSmartLaunch(
          context,
          requesterOf(request),
          request.params.id,
          request.cookies[smartLaunchCookieName],
        ),
    );

    app.post(
      '/api/smart/launches/:id/write-back',
      {
        config: { access: 'assessment.create' },
        schema: {
          summary:
            "Sends a saved assessment's RiskAssessments into the launch's record (SMART_WRITE_BACK), each a conditional create on this product's id, so a retry makes no second copy; 502 when the record system does not take them",
          tags: ['smart-app'],
          params: z.object({ id: z.string().max(100) }),
          body: smartWriteBackBodySchema,
          response: {
            200: smartWriteBackResultSchema,
            ...errorResponses(400, 401, 403, 404, 409, 502),
          },
        },
      },
      async (request) =>
        writeBackAssessment(
          context,
          requesterOf(request),
          request.params.id,
          request.cookies[smartLaunchCookieName],
          request.body.assessmentId,
        ),
    );
  };
}
