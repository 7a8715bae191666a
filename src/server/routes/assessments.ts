import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assessmentBodySchema,
  assessmentIdParamsSchema,
  assessmentListQuerySchema,
  assessmentListSchema,
  assessmentSchema,
} from '../../shared/api/assessments.ts';
import { requesterOf, scopeOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import {
  createAssessment,
  deleteAssessment,
  getAssessment,
  listAssessments,
  restoreAssessment,
  signOffAssessment,
  updateAssessment,
} from '../services/assessments.ts';
import { etag, ifMatchHeaders, requiredIfMatchVersion } from './if-match.ts';
import { errorResponses } from './responses.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

const tags = ['assessments'];

export function assessmentRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/assessments',
      {
        config: { access: 'assessment.list' },
        schema: {
          summary:
            'The history: live assessments, newest first, searched and filtered on the server',
          tags,
          querystring: assessmentListQuerySchema,
          response: { 200: assessmentListSchema, ...errors },
        },
      },
      async (request) => listAssessments(context, scopeOf(request), request.query),
    );

    app.post(
      '/api/assessments',
      {
        config: { access: 'assessment.create' },
        schema: {
          summary: 'Create an assessment; the server computes every score',
          description:
            'A repeated code never makes a second record: with the same content the existing assessment is answered (200, a retried save); with other content 409 names it in error.existingId. A patient named by number alone (patientByNumber) is linked when the live record with that number has the same gender or none, made when no live record has it, and otherwise refused with 409 patient_gender_differs naming the record in error.existingId, unless linkWhateverGender is true.',
          tags,
          body: assessmentBodySchema,
          response: { 200: assessmentSchema, 201: assessmentSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { assessment, created } = await createAssessment(
          context,
          requesterOf(request),
          request.body,
        );
        void reply.header('etag', etag(assessment.version));
        return reply.status(created ? 201 : 200).send(assessment);
      },
    );

    app.get(
      '/api/assessments/:id',
      {
        config: { access: 'assessment.view' },
        schema: {
          summary: 'Read one assessment; the ETag carries its version',
          tags,
          params: assessmentIdParamsSchema,
          response: { 200: assessmentSchema, ...errors },
        },
      },
      async (request, reply) => {
        const assessment = await getAssessment(context, requesterOf(request), request.params.id);
        void reply.header('etag', etag(assessment.version));
        return assessment;
      },
    );

    app.put(
      '/api/assessments/:id',
      {
        config: { access: 'assessment.update' },
        schema: {
          summary: 'Replace the inputs and notes; If-Match must carry the version it was based on',
          tags,
          params: assessmentIdParamsSchema,
          headers: ifMatchHeaders,
          body: assessmentBodySchema,
          response: {
            200: assessmentSchema,
            ...errors,
            ...errorResponses(412, 428),
          },
        },
      },
      async (request, reply) => {
        const assessment = await updateAssessment(
          context,
          requesterOf(request),
          request.params.id,
          requiredIfMatchVersion(request),
          request.body,
        );
        void reply.header('etag', etag(assessment.version));
        return assessment;
      },
    );

    app.post(
      '/api/assessments/:id/sign-off',
      {
        config: { access: 'assessment.signOff' },
        schema: {
          summary:
            'Sign off an assessment; it cannot be undone and freezes the record. If-Match must carry the version the user saw',
          tags,
          params: assessmentIdParamsSchema,
          headers: ifMatchHeaders,
          response: { 200: assessmentSchema, ...errors, ...errorResponses(412, 428) },
        },
      },
      async (request, reply) => {
        const assessment = await signOffAssessment(
          context,
          requesterOf(request),
          request.params.id,
          requiredIfMatchVersion(request),
        );
        void reply.header('etag', etag(assessment.version));
        return assessment;
      },
    );

    app.delete(
      '/api/assessments/:id',
      {
        config: { access: 'assessment.delete' },
        schema: {
          summary:
            'Delete an assessment (soft: it stays in the database, restorable by an admin). If-Match must carry the version the user saw',
          tags,
          params: assessmentIdParamsSchema,
          headers: ifMatchHeaders,
          response: { 204: z.null(), ...errors, ...errorResponses(412, 428) },
        },
      },
      async (request, reply) => {
        await deleteAssessment(
          context,
          requesterOf(request),
          request.params.id,
          requiredIfMatchVersion(request),
        );
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/assessments/:id/restore',
      {
        config: { access: 'assessment.restore' },
        schema: {
          summary: 'Restore a deleted assessment',
          tags,
          params: assessmentIdParamsSchema,
          response: { 200: assessmentSchema, ...errors },
        },
      },
      async (request) => restoreAssessment(context, requesterOf(request), request.params.id),
    );
  };
}
