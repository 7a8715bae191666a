import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { extractionResultSchema } from '../../shared/api/code-extraction.ts';
import { requesterOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { extractCodesFromNotes, extractionDownload } from '../services/code-extraction.ts';
import { errorResponses } from './responses.ts';

const errors = errorResponses(401, 403);
const tags = ['code extraction'];

export function codeExtractionRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/code-extraction',
      {
        config: { access: 'codes.extract' },
        schema: {
          summary: 'Scan every note and review comment of live assessments for codes',
          description:
            'With Accept: application/x-ndjson the answer streams {"type":"progress",...} lines while the scan runs, then one {"type":"result","result":...} line.',
          tags,
          response: { 200: extractionResultSchema, ...errors },
        },
      },
      async (request, reply) => {
        const who = requesterOf(request);
        if (!(request.headers.accept ?? '').includes('application/x-ndjson')) {
          return extractCodesFromNotes(context, who);
        }
        const lines = new Readable({ read() {} });
        extractCodesFromNotes(context, who, (scanned, total) => {
          lines.push(`${JSON.stringify({ type: 'progress', scanned, total })}\n`);
        }).then(
          (result) => {
            lines.push(`${JSON.stringify({ type: 'result', result })}\n`);
            lines.push(null);
          },
          (error: unknown) => {
            request.log.error({ err: error }, 'code extraction failed');
            lines.push(`${JSON.stringify({ type: 'error' })}\n`);
            lines.push(null);
          },
        );
        return reply
          .type('application/x-ndjson')
          .send(lines as unknown as z.infer<typeof extractionResultSchema>);
      },
    );

    for (const [url, kind] of [
      ['/api/code-extraction/report.txt', 'report'],
      ['/api/code-extraction/matches.csv', 'csv'],
    ] as const) {
      app.get(
        url,
        {
          config: { access: 'codes.extract' },
          schema: {
            summary:
              kind === 'report'
                ? 'The extraction as a text report; audited as an export'
                : 'Every match as CSV; audited as an export',
            tags,
            response: { 200: z.string(), ...errors },
          },
        },
        async (request, reply) => {
          const file = await extractionDownload(context, requesterOf(request), kind);
          void reply
            .type(file.contentType)
            .header('content-disposition', `attachment; filename="${file.fileName}"`);
          return file.body;
        },
      );
    }
  };
}
