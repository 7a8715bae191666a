import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { errorResponses } from './responses.ts';

export function metricsRoutes(registry: Registry): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/metrics',
      {
        // METRICS_TOKEN reads them; an API token does not (tokens read FHIR only: the guard).
        config: { access: 'metrics.read', metricsToken: true },
        schema: {
          summary:
            'The server’s metrics in the Prometheus text format; an admin session, or METRICS_TOKEN as a Bearer token (API tokens read FHIR only)',
          tags: ['system'],
          response: { 200: z.string(), ...errorResponses(401, 403) },
        },
      },
      async (_request, reply) => {
        const text = await registry.metrics();
        return reply.type(registry.contentType).send(text);
      },
    );
  };
}
