import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assessmentIdParamsSchema } from '../../shared/api/assessments.ts';
import { z } from 'zod';
import {
  agreementQuerySchema,
  agreementSummarySchema,
  reviewBodySchema,
  reviewLockBodySchema,
  reviewSchema,
} from '../../shared/api/reviews.ts';
import { requesterOf, scopeOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import {
  agreementCsv,
  getAgreementSummary,
  getReview,
  lockReview,
  saveReview,
} from '../services/reviews.ts';
import { errorResponses } from './responses.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

const tags = ['reviews'];

export function reviewRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/assessments/:id/review',
      {
        config: { access: 'review.view' },
        schema: {
          summary:
            "Read an assessment's doctor review; conditions not reviewed show decided false and the defaults",
          tags,
          params: assessmentIdParamsSchema,
          response: { 200: reviewSchema, ...errors },
        },
      },
      async (request) => getReview(context, requesterOf(request), request.params.id),
    );

    app.put(
      '/api/assessments/:id/review',
      {
        config: { access: 'review.save' },
        schema: {
          summary: 'Replace the whole review with the conditions the doctor decided',
          description:
            'A condition in reviews is one the doctor chose Agree or Disagree for (decided); one left out was not reviewed and is saved as not decided and not agreed, without comments. doctorStatus, the status the doctor would give, is accepted only with agreed false (400 naming the field otherwise). A locked review is refused with 409 review_locked and stays as it was.',
          tags,
          params: assessmentIdParamsSchema,
          body: reviewBodySchema,
          response: { 200: reviewSchema, ...errors },
        },
      },
      async (request) => saveReview(context, requesterOf(request), request.params.id, request.body),
    );

    app.post(
      '/api/assessments/:id/review/lock',
      {
        config: { access: 'review.lock' },
        schema: {
          summary:
            'Finalize the review for good, saving the given reviews first when there are any',
          description:
            'With no body or {} the stored review is locked; with reviews they are saved and locked in one step. A locked review is refused with 409 review_locked.',
          tags,
          params: assessmentIdParamsSchema,
          body: reviewLockBodySchema,
          response: { 200: reviewSchema, ...errors },
        },
      },
      async (request) => lockReview(context, requesterOf(request), request.params.id, request.body),
    );

    app.get(
      '/api/reviews/agreement',
      {
        config: { access: 'review.view' },
        schema: {
          summary:
            "How the rules measure against the doctors: per condition the reviews, the share agreed, Cohen's kappa, the matrix of the rules' status against the doctor's, and the latest disagreement comments",
          description:
            "Counts the decided conditions of finalized reviews of assessments that are not deleted, in the units within your scope; a condition the doctor left untouched is not counted. from and to keep the assessments made on those days in the clinic's zone, as the population panel does.",
          tags,
          querystring: agreementQuerySchema,
          response: {
            200: agreementSummarySchema,
            400: errors[400],
            401: errors[401],
            403: errors[403],
            404: errors[404],
          },
        },
      },
      async (request) => getAgreementSummary(context, scopeOf(request), request.query),
    );

    app.get(
      '/api/reviews/agreement.csv',
      {
        config: { access: 'review.view' },
        schema: {
          summary:
            'Download the Doctor Agreement as CSV, one row per condition with its matrix; the download is audited as an export',
          tags,
          querystring: agreementQuerySchema,
          response: {
            200: z.unknown().describe('text/csv'),
            400: errors[400],
            401: errors[401],
            403: errors[403],
            404: errors[404],
          },
        },
      },
      async (request, reply) => {
        const csv = await agreementCsv(context, requesterOf(request), request.query);
        const date = context.now().toISOString().slice(0, 10);
        void reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="doctor-agreement-${date}.csv"`);
        return reply.send(csv);
      },
    );
  };
}
