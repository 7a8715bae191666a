import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientErrorReportSchema } from '../../shared/api/client-errors.ts';
import { errorEnvelopeSchema } from '../../shared/api/errors.ts';

/** Enough of a message to recognise the failure in the log. */
const loggedMessageLength = 200;

/**
 * A browser's error message can quote what was on screen (an age, a weight, an id), so the log
 * keeps only its start, with every digit masked.
 */
export function redactClientText(text: string, maxLength = loggedMessageLength): string {
  const masked = text.replaceAll(/\d/g, '#');
  return masked.length > maxLength ? `${masked.slice(0, maxLength)}…` : masked;
}

export function clientErrorRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/client-errors',
      {
        config: { access: 'clientErrors.report' },
        schema: {
          summary: 'Report an error the web app caught, for the server log (no patient data)',
          tags: ['client errors'],
          body: clientErrorReportSchema,
          response: {
            204: z.null(),
            400: errorEnvelopeSchema,
            401: errorEnvelopeSchema,
            403: errorEnvelopeSchema,
          },
        },
      },
      async (request, reply) => {
        const { errorId, message, context, recovered } = request.body;
        request.log.warn(
          {
            clientError: {
              errorId,
              message: redactClientText(message),
              context: redactClientText(context),
              recovered,
            },
          },
          'client error reported',
        );
        return reply.status(204).send(null);
      },
    );
  };
}
