import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditListSchema, auditQuerySchema } from '../../shared/api/audit.ts';
import { requesterOf, scopeOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { errorResponses } from './responses.ts';
import { auditTrailCsv, listAudit } from '../services/audit-trail.ts';

const errors = errorResponses(400, 401, 403);

export function auditRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/audit',
      {
        config: { access: 'audit.read' },
        schema: {
          summary: 'Read the audit trail, newest first',
          tags: ['audit'],
          querystring: auditQuerySchema,
          response: { 200: auditListSchema, ...errors },
        },
      },
      async (request) => listAudit(context, scopeOf(request), request.query),
    );

    app.get(
      '/api/audit.csv',
      {
        config: { access: 'audit.read' },
        schema: {
          summary: 'Download the audit trail as CSV; the download is audited as an export',
          tags: ['audit'],
          querystring: auditQuerySchema.omit({ limit: true, before: true }),
          response: { 200: z.unknown().describe('text/csv'), ...errors },
        },
      },
      async (request, reply) => {
        const csv = await auditTrailCsv(context, requesterOf(request), request.query);
        const date = context.now().toISOString().slice(0, 10);
        void reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="audit-trail-${date}.csv"`);
        return reply.send(csv);
      },
    );
  };
}
