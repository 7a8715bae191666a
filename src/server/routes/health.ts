import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/api/errors.ts';
import { healthResponseSchema } from '../../shared/api/health.ts';
import { friendlyMessages } from '../../shared/texts.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { productVersion } from '../version.ts';

export function healthRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/health',
      {
        config: { access: 'public' },
        schema: {
          summary: 'Liveness and database reachability; needs no session',
          tags: ['system'],
          response: { 200: healthResponseSchema, 503: errorEnvelopeSchema },
        },
      },
      async () => {
        try {
          await sql`select 1`.execute(context.database.db);
        } catch {
          throw new AppError(503, 'database_unavailable', friendlyMessages.database);
        }
        return {
          status: 'ok' as const,
          database: context.database.engine,
          version: productVersion,
        };
      },
    );
  };
}
