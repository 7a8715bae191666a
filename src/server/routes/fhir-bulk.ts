import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bulkExportRoutes,
  bulkFileParamsSchema,
  bulkJobParamsSchema,
  bulkKickOffQuerySchema,
  bulkManifestSchema,
} from '../../shared/api/fhir-bulk.ts';
import { fhirIdParamsSchema, fhirTexts, operationOutcomeSchema } from '../../shared/api/fhir.ts';
import { requireUser, scopeOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { apiTokenActor } from '../services/api-tokens.ts';
import {
  bulkExportFile,
  bulkExportStatus,
  cancelBulkExport,
  startBulkExport,
  startBulkExportRunner,
  type BulkCaller,
  type BulkStatus,
  type BulkExportRunner,
  type KickOff,
} from '../services/bulk-export.ts';
import { fhirClientActor } from '../services/fhir-clients.ts';
import { acceptsJson, fhirBase, handleFhirError, handlingOf, sendOutcome } from './fhir.ts';

const fhirJson = 'application/fhir+json; charset=utf-8';
/** How long a client should wait before it asks for a job's status again, in seconds. */
const retryAfterSeconds = 2;

/** The bulk routes read like the FHIR API: a session of a role that may read it, or a token. */
const bulkAccess = { access: 'fhir.read', apiToken: 'read' } as const;

const errors = {
  400: operationOutcomeSchema,
  401: operationOutcomeSchema,
  403: operationOutcomeSchema,
  404: operationOutcomeSchema,
  406: operationOutcomeSchema,
};

const tags = ['fhir'];

/** The caller a job belongs to: the FHIR client, the API token or the signed-in user. */
function callerOf(request: FastifyRequest): BulkCaller {
  const common = { address: request.ip, scope: scopeOf(request) };
  if (request.fhirClient !== null) {
    return {
      ...common,
      owner: `fhir-client:${request.fhirClient.clientId}`,
      actor: fhirClientActor(request.fhirClient.clientId),
      clientScopes: request.fhirClient.scopes,
    };
  }
  if (request.apiToken !== null) {
    return {
      ...common,
      owner: `api-token:${request.apiToken.id}`,
      actor: apiTokenActor(request.apiToken),
      clientScopes: undefined,
    };
  }
  const user = requireUser(request);
  return { ...common, owner: `user:${user.id}`, actor: user, clientScopes: undefined };
}

/** 202 with no body: a job in progress, or cancelled. */
function accepted(reply: FastifyReply): FastifyReply {
  return reply.status(202).send();
}

/**
 * A job's status as the IG answers it: 202 with X-Progress and Retry-After while it runs, 500
 * with an OperationOutcome once failed, 200 with the manifest (application/json) once complete.
 */
function sendStatus(reply: FastifyReply, status: BulkStatus): FastifyReply {
  switch (status.state) {
    case 'in-progress':
      return accepted(
        reply
          .header('x-progress', status.progress)
          .header('retry-after', String(retryAfterSeconds)),
      );
    case 'failed':
      return reply.status(500).type(fhirJson).send(status.outcome);
    case 'completed':
      return reply
        .header('expires', new Date(status.expiresAt).toUTCString())
        .type('application/json; charset=utf-8')
        .send(status.manifest);
  }
}

function sendNdjson(reply: FastifyReply, body: Readable): FastifyReply {
  return reply.type('application/fhir+ndjson').send(body);
}

/** Whether the request's Prefer header asks for `respond-async`, as a kick-off must. */
function respondsAsync(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  return (Array.isArray(prefer) ? prefer.join(',') : (prefer ?? ''))
    .split(/[,;]/)
    .some((preference) => preference.trim().toLowerCase() === 'respond-async');
}

/**
 * FHIR Bulk Data Access 2.0 under /fhir (docs/INTEROP.md): the three `$export` kick-offs, the
 * job's status (polled, and DELETE to cancel) and its NDJSON files. Registered beside the read
 * API with the same prefix, error handler and access; the runner that writes the files starts
 * with the app and stops with it.
 */
export function fhirBulkRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.setErrorHandler(handleFhirError);
    let runner: BulkExportRunner | undefined;
    app.addHook('onReady', async () => {
      runner = startBulkExportRunner(context, (error, message) => {
        const { name, message: text } = error as Error;
        app.log.error({ err: { type: name, message: text } }, message);
      });
    });
    app.addHook('onClose', async () => {
      await runner?.stop();
    });
    const base = (request: FastifyRequest) => fhirBase(context, request);

    const kickOff = async (
      request: FastifyRequest,
      reply: FastifyReply,
      kind: KickOff['kind'],
      path: string,
      groupId?: string,
    ) => {
      if (!acceptsJson(request)) {
        return sendOutcome(reply, 406, 'not-supported', fhirTexts.notAcceptable);
      }
      const question = request.url.indexOf('?');
      const query = question === -1 ? '' : request.url.slice(question);
      const jobId = await startBulkExport(context, callerOf(request), {
        kind,
        ...(groupId === undefined ? {} : { groupId }),
        requestUrl: `${base(request)}${path}${query}`,
        parameters: new URLSearchParams(query),
        strict: handlingOf(request) === 'strict',
        respondAsync: respondsAsync(request),
      });
      runner?.wake();
      return reply
        .status(202)
        .header('content-location', `${base(request)}/bulk-status/${jobId}`)
        .type(fhirJson)
        .send({
          resourceType: 'OperationOutcome',
          issue: [
            {
              severity: 'information',
              code: 'informational',
              diagnostics: 'The export has started: poll the Content-Location for its status.',
            },
          ],
        });
    };

    const kickOffSchema = (summary: string) => ({
      summary,
      description:
        'Prefer: respond-async is required. _type (comma-separated), _since (an instant), _outputFormat (application/fhir+ndjson, application/ndjson or ndjson). Other parameters: 400 with Prefer: handling=strict, else ignored. Answers 202 with Content-Location, the status URL.',
      tags,
      querystring: bulkKickOffQuerySchema,
      response: { 202: operationOutcomeSchema, ...errors },
    });
    const prefix = '/fhir';
    const local = (pattern: string) => pattern.slice(prefix.length);

    app.get(
      local(bulkExportRoutes.system),
      {
        config: bulkAccess,
        schema: kickOffSchema(
          'FHIR Bulk Data export of everything the caller may read (system level)',
        ),
      },
      (request, reply) => kickOff(request, reply, 'system', '/$export'),
    );
    app.get(
      local(bulkExportRoutes.patient),
      {
        config: bulkAccess,
        schema: kickOffSchema('FHIR Bulk Data export of all Patients and their resources'),
      },
      (request, reply) => kickOff(request, reply, 'patient', '/Patient/$export'),
    );
    app.get(
      local(bulkExportRoutes.group),
      {
        config: bulkAccess,
        schema: {
          ...kickOffSchema(
            'FHIR Bulk Data export of an organisation unit (the Group of the same id) and the units below it',
          ),
          params: fhirIdParamsSchema,
        },
      },
      (request, reply) =>
        kickOff(request, reply, 'group', `/Group/${request.params.id}/$export`, request.params.id),
    );

    app.get(
      local(bulkExportRoutes.status),
      {
        config: bulkAccess,
        schema: {
          summary: "A bulk export's status: 202 while it runs, 200 with its manifest when complete",
          description:
            'While running: 202 with X-Progress and Retry-After. Complete: 200, the manifest (application/json), with Expires. Failed: 500 with an OperationOutcome. Only the caller who started it; anyone else 404.',
          tags,
          params: bulkJobParamsSchema,
          response: {
            200: bulkManifestSchema,
            202: z.null().describe('In progress: no body; X-Progress and Retry-After'),
            500: operationOutcomeSchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const status = await bulkExportStatus(
          context,
          callerOf(request),
          request.params.jobId,
          base(request),
        );
        return sendStatus(reply, status);
      },
    );

    app.delete(
      local(bulkExportRoutes.status),
      {
        config: bulkAccess,
        schema: {
          summary: 'Cancels a bulk export and deletes its files (202)',
          description: 'Only the caller who started it; anyone else, and a later status, 404.',
          tags,
          params: bulkJobParamsSchema,
          response: { 202: z.null().describe('Cancelled: no body'), ...errors },
        },
      },
      async (request, reply) => {
        await cancelBulkExport(context, callerOf(request), request.params.jobId);
        return accepted(reply);
      },
    );

    app.get(
      local(bulkExportRoutes.file),
      {
        config: bulkAccess,
        schema: {
          summary: "One NDJSON file of a complete bulk export, as its manifest's url names it",
          description:
            'application/fhir+ndjson, a resource a line. Only the caller who started the export (audited as export).',
          tags,
          params: bulkFileParamsSchema,
          response: { 200: z.string().describe('application/fhir+ndjson'), ...errors },
        },
      },
      async (request, reply) => {
        const body = await bulkExportFile(
          context,
          callerOf(request),
          request.params.jobId,
          request.params.file,
        );
        return sendNdjson(reply, body);
      },
    );
  };
}
