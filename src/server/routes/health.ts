import { sql, type Kysely } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/api/errors.ts';
import { healthResponseSchema, readinessResponseSchema } from '../../shared/api/health.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { productVersion } from '../version.ts';

/** For monitors, which need a prompt answer: they mark the server down when the database is. */
const healthDeadlineMillis = 3_000;

export const databaseDoesNotAnswer = 'The database does not answer.';

/**
 * Whether `select 1` comes back within the deadline. A database that refuses connections fails at
 * once; one that does not answer at all would otherwise hold the check for as long as the pool
 * waits for a connection, or longer on a connection whose host has vanished.
 */
async function databaseAnswers(db: Kysely<Database>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), healthDeadlineMillis);
  });
  const answer = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

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
        if (!(await databaseAnswers(context.database.db))) {
          throw new AppError(503, 'database_unavailable', databaseDoesNotAnswer);
        }
        return {
          status: 'ok' as const,
          database: context.database.engine,
          version: productVersion,
        };
      },
    );

    // For a load balancer or an orchestrator's readiness probe: send no requests here while the
    // database does not answer.
    app.get(
      '/api/health/ready',
      {
        config: { access: 'public' },
        schema: {
          summary: 'Ready to serve: 503 while the database does not answer; needs no session',
          tags: ['system'],
          response: { 200: readinessResponseSchema, 503: errorEnvelopeSchema },
        },
      },
      async () => {
        if (!(await databaseAnswers(context.database.db))) {
          throw new AppError(503, 'database_unavailable', databaseDoesNotAnswer);
        }
        return { status: 'ready' as const, database: context.database.engine };
      },
    );
  };
}
