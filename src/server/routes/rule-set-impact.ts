import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ErrorEnvelope } from '../../shared/api/errors.ts';
import {
  impactNdjsonType,
  impactRequestSchema,
  impactResultSchema,
  impactVersionParamsSchema,
  type ImpactStreamLine,
} from '../../shared/rule-set-impact.ts';
import { friendlyMessages } from '../../shared/texts.ts';
import { requesterOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { databaseFailureOf } from '../db/failures.ts';
import { AppError, envelope } from '../errors.ts';
import { ruleSetForImpact, ruleSetImpactFor } from '../services/rule-set-impact.ts';
import { errorResponses } from './responses.ts';

/** The error line that ends a stream whose analysis failed midway, as the envelope would say it. */
function streamedError(error: unknown): ErrorEnvelope {
  if (error instanceof AppError) return envelope(error.code, error.message, error.field);
  const failure = databaseFailureOf(error);
  if (failure === 'disk_full') return envelope('disk_full', friendlyMessages.diskFull);
  if (failure !== undefined) return envelope('database_unavailable', friendlyMessages.database);
  return envelope('internal', friendlyMessages.unexpected);
}

function line(value: ImpactStreamLine): string {
  return `${JSON.stringify(value)}\n`;
}

export function ruleSetImpactRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/rule-sets/:version/impact',
      {
        config: { access: 'ruleSet.impact' },
        schema: {
          summary:
            'Re-score the live assessments in a date range under a rule set version: per condition the stored status against the new one, and the agreement of each with the locked doctor reviews. With Accept: application/x-ndjson, progress lines {"progress":{"done","total"}} then one {"result":…} (or {"error":…}) line.',
          tags: ['rule-sets'],
          params: impactVersionParamsSchema,
          body: impactRequestSchema.nullish(),
          response: {
            200: impactResultSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const ruleSet = ruleSetForImpact(request.params.version);
        const range = { from: request.body?.from, to: request.body?.to };
        const requester = requesterOf(request);
        if (!(request.headers.accept ?? '').includes(impactNdjsonType)) {
          return ruleSetImpactFor(context, requester, ruleSet, range);
        }
        const body = new PassThrough();
        const stopped = new AbortController();
        // A client that goes away stops the analysis at the next page.
        reply.raw.once('close', () => stopped.abort());
        ruleSetImpactFor(context, requester, ruleSet, range, {
          signal: stopped.signal,
          onProgress: (progress) => body.write(line({ progress })),
        }).then(
          (result) => body.end(line({ result })),
          (error: unknown) => {
            if (!stopped.signal.aborted) {
              request.log.error(
                { err: { type: (error as Error).name, message: (error as Error).message } },
                'rule set impact failed',
              );
            }
            body.end(line(streamedError(error)));
          },
        );
        // Fastify pipes a stream as it is; the route's schema types the JSON answer alone.
        return reply.type(`${impactNdjsonType}; charset=utf-8`).send(body as never);
      },
    );
  };
}
