import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assessmentIdParamsSchema } from '../../shared/api/assessments.ts';
import { assessmentReportSchema, exportQuerySchema } from '../../shared/api/exports.ts';
import { requesterOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import {
  assessmentsCsv,
  assessmentsReportText,
  fhirNdjson,
  type ExportFile,
} from '../services/exports.ts';
import { loadAssessmentBundle } from '../services/fhir.ts';
import { fhirBase } from './fhir.ts';
import { loadAssessmentReport, renderReportText } from '../services/reports.ts';
import { errorResponses } from './responses.ts';

const errors = errorResponses(400, 401, 403, 404);

const tags = ['exports'];

/** File names are made by the server from ids, codes and dates, so they need no escaping. */
function attachment(reply: FastifyReply, contentType: string, fileName: string): FastifyReply {
  return reply
    .type(contentType)
    .header('content-disposition', `attachment; filename="${fileName}"`);
}

function sendFile(reply: FastifyReply, contentType: string, file: ExportFile) {
  return attachment(reply, contentType, file.fileName).send(file.body);
}

export function exportRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/assessments/:id/report.txt',
      {
        config: { access: 'assessment.report' },
        schema: {
          summary: 'Download the comprehensive report of one assessment as text',
          tags,
          params: assessmentIdParamsSchema,
          response: { 200: z.string().describe('text/plain'), ...errors },
        },
      },
      async (request, reply) => {
        const report = await loadAssessmentReport(context, requesterOf(request), request.params.id);
        attachment(reply, 'text/plain; charset=utf-8', report.fileName);
        return renderReportText(report);
      },
    );

    app.get(
      '/api/assessments/:id/report',
      {
        config: { access: 'assessment.report' },
        schema: {
          summary: 'The comprehensive report of one assessment as sections, for a printable page',
          tags,
          params: assessmentIdParamsSchema,
          response: { 200: assessmentReportSchema, ...errors },
        },
      },
      async (request) => loadAssessmentReport(context, requesterOf(request), request.params.id),
    );

    app.get(
      '/api/assessments/:id/fhir',
      {
        config: { access: 'export.fhir' },
        schema: {
          summary: 'One assessment as a FHIR R4 Bundle (collection)',
          tags,
          params: assessmentIdParamsSchema,
          response: { 200: z.unknown().describe('application/fhir+json Bundle'), ...errors },
        },
      },
      async (request, reply) => {
        const bundle = await loadAssessmentBundle(
          context,
          requesterOf(request),
          request.params.id,
          fhirBase(context, request),
        );
        return reply.type('application/fhir+json; charset=utf-8').send(bundle);
      },
    );

    app.get(
      '/api/exports/assessments.csv',
      {
        config: { access: 'export.bulk' },
        schema: {
          summary: 'Download every live assessment as CSV (58 columns), streamed',
          tags,
          querystring: exportQuerySchema,
          response: { 200: z.unknown().describe('text/csv'), ...errors },
        },
      },
      async (request, reply) =>
        sendFile(
          reply,
          'text/csv; charset=utf-8',
          await assessmentsCsv(context, requesterOf(request), request.query),
        ),
    );

    app.get(
      '/api/exports/assessments.txt',
      {
        config: { access: 'export.bulk' },
        schema: {
          summary: 'Download the comprehensive text report of every live assessment, streamed',
          tags,
          querystring: exportQuerySchema,
          response: { 200: z.unknown().describe('text/plain'), ...errors },
        },
      },
      async (request, reply) =>
        sendFile(
          reply,
          'text/plain; charset=utf-8',
          await assessmentsReportText(context, requesterOf(request), request.query),
        ),
    );

    app.get(
      '/api/exports/fhir.ndjson',
      {
        config: { access: 'export.fhir' },
        schema: {
          summary: 'Download every live assessment as FHIR R4 bulk-data NDJSON, streamed',
          tags,
          querystring: exportQuerySchema,
          response: { 200: z.unknown().describe('application/fhir+ndjson'), ...errors },
        },
      },
      async (request, reply) =>
        sendFile(
          reply,
          'application/fhir+ndjson',
          await fhirNdjson(context, requesterOf(request), request.query),
        ),
    );
  };
}
