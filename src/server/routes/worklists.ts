import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  followUpListSchema,
  reviewWorklistSchema,
  worklistQuerySchema,
} from '../../shared/api/worklists.ts';
import { requesterOf, scopeOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { followUpList, reviewWorklist } from '../services/worklists.ts';
import { errorResponses } from './responses.ts';

const errors = errorResponses(400, 401, 403);

const tags = ['worklists'];

export function worklistRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/worklists/review',
      {
        config: { access: 'worklist.review' },
        schema: {
          summary: 'Signed-off assessments awaiting a finalized doctor review, most urgent first',
          description:
            'Any condition at High first, then at Moderate, then the longest wait since sign-off; ties by id.',
          tags,
          querystring: worklistQuerySchema,
          response: { 200: reviewWorklistSchema, ...errors },
        },
      },
      async (request) => reviewWorklist(context, scopeOf(request), request.query),
    );

    app.get(
      '/api/worklists/follow-up',
      {
        config: { access: 'worklist.followUp' },
        schema: {
          summary:
            'Patients whose latest assessment has a condition at High or Moderate, the earliest due first',
          description:
            'Due FOLLOW_UP_DAYS_HIGH (default 30) days after an assessment with a condition at High, FOLLOW_UP_DAYS_MODERATE (default 90) after one at Moderate.',
          tags,
          querystring: worklistQuerySchema,
          response: { 200: followUpListSchema, ...errors },
        },
      },
      async (request) => followUpList(context, requesterOf(request), request.query),
    );
  };
}
