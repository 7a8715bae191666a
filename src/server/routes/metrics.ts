import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { errorResponses } from './responses.ts';

export function metricsRoutes(registry: Registry): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/metrics',
      {
        // An API token (`triage api-token create`) reads them too, as the METRICS_TOKEN setting does.
        config: { access: 'metrics.read', metricsToken: true, apiToken: 'read' },
        schema: {
          summary:
            'The server’s metrics in the Prometheus text format; an admin session, or METRICS_TOKEN or an API token as a Bearer token',
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
