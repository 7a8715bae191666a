import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/api/errors.ts';
import { populationQuerySchema, populationSchema } from '../../shared/api/population.ts';
import { scopeOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { populationCounts } from '../services/population.ts';

export function populationRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // A static path: Fastify's router prefers it to /api/assessments/:id whatever the order.
    app.get(
      '/api/assessments/population',
      {
        config: { access: 'assessment.list' },
        schema: {
          summary:
            'Risk statuses per condition over the live assessments within your scope matching the history filter',
          tags: ['assessments'],
          querystring: populationQuerySchema,
          response: {
            200: populationSchema,
            400: errorEnvelopeSchema,
            401: errorEnvelopeSchema,
            403: errorEnvelopeSchema,
            404: errorEnvelopeSchema,
          },
        },
      },
      async (request) => populationCounts(context, scopeOf(request), request.query),
    );
  };
}
