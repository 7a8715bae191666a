import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  type FastifyPluginAsyncZod,
} from 'fastify-type-provider-zod';
import type { OperationOutcome } from '@medplum/fhirtypes';
import {
  capabilityStatementSchema,
  conditionResourceSchema,
  fhirIdParamsSchema,
  fhirTexts,
  metadataQuerySchema,
  observationResourceSchema,
  operationOutcomeSchema,
  organizationResourceSchema,
  patientResourceSchema,
  patientSearchSchema,
  riskAssessmentResourceSchema,
  riskAssessmentSearchSchema,
  searchsetBundleSchema,
} from '../../shared/api/fhir.ts';
import { oauthTokenPath } from '../../shared/api/smart.ts';
import { scopeOf } from '../auth/guard.ts';
import { apiTokenActor } from '../services/api-tokens.ts';
import { fhirClientActor } from '../services/fhir-clients.ts';
import { recordAudit } from '../services/audit.ts';
import type { AppContext } from '../context.ts';
import { databaseFailureOf } from '../db/failures.ts';
import { AppError } from '../errors.ts';
import {
  capabilityStatement,
  readAssessmentPart,
  readOrganization,
  readPatient,
  searchPatients,
  searchRiskAssessments,
  type FhirReader,
  type SearchHandling,
  type SearchRequest,
} from '../services/fhir-api.ts';

const fhirJson = 'application/fhir+json; charset=utf-8';

/**
 * The base of this server's FHIR URLs, `https://host/fhir`: PUBLIC_URL when set (behind a proxy
 * the request's host is not the one clients use), else the request's protocol and host.
 */
export function fhirBase(context: AppContext, request: FastifyRequest): string {
  return `${publicBase(context, request)}/fhir`;
}

/** The SMART token endpoint's URL, the `aud` its assertions name. */
export function tokenEndpointOf(context: AppContext, request: FastifyRequest): string {
  return `${publicBase(context, request)}${oauthTokenPath}`;
}

function publicBase(context: AppContext, request: FastifyRequest): string {
  return context.config.publicUrl ?? `${request.protocol}://${request.host}`;
}

/** Media types a client may ask for (Accept, or `_format`); all are answered as FHIR JSON. */
const acceptedTypes = new Set([
  '*/*',
  'application/*',
  'application/json',
  'application/fhir+json',
  'application/json+fhir',
]);
const acceptedFormats = new Set(['json', 'application/json', 'application/fhir+json']);

export function acceptsJson(request: FastifyRequest): boolean {
  const format = (request.query as { _format?: unknown } | undefined)?._format;
  if (typeof format === 'string') return acceptedFormats.has(format.trim().toLowerCase());
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return acceptedTypes.has(type) && (quality === undefined || Number(quality.slice(2)) > 0);
  });
}

export type IssueCode =
  'invalid' | 'login' | 'forbidden' | 'not-found' | 'not-supported' | 'transient' | 'exception';

function outcome(code: IssueCode, diagnostics: string): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics }] };
}

export function sendOutcome(
  reply: FastifyReply,
  status: number,
  code: IssueCode,
  diagnostics: string,
): FastifyReply {
  if (status === 401) void reply.header('www-authenticate', 'Bearer realm="fhir"');
  return reply.status(status).type(fhirJson).send(outcome(code, diagnostics));
}

/**
 * Failures under /fhir are OperationOutcomes, never the product's error envelope. Their
 * diagnostics are the server's own words: a refused input is named, never repeated, so no
 * patient number or name a request carried comes back or reaches a log.
 */
export function handleFhirError(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AppError) {
    switch (error.status) {
      case 401:
        return sendOutcome(
          reply,
          401,
          'login',
          request.headers.authorization === undefined
            ? fhirTexts.unauthenticated
            : fhirTexts.invalidToken,
        );
      case 403:
        return sendOutcome(reply, 403, 'forbidden', fhirTexts.forbidden);
      case 404:
        return sendOutcome(reply, 404, 'not-found', fhirTexts.notFound);
      default:
        return sendOutcome(reply, error.status, 'invalid', error.message);
    }
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = error.validation
      .map((issue) => {
        const path = (issue.params as { issue?: { path?: PropertyKey[] } } | undefined)?.issue
          ?.path;
        return path === undefined ? issue.instancePath : path.map(String).join('.');
      })
      .filter((field) => field !== '');
    return sendOutcome(
      reply,
      400,
      'invalid',
      `Invalid or missing search parameter or id: ${[...new Set(fields)].join(', ') || 'the request'}.`,
    );
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return sendOutcome(reply, status, 'invalid', 'The request could not be read.');
  }
  if (databaseFailureOf(error) !== undefined) {
    request.log.warn(
      { err: { type: error.name, code: error.code } },
      'the database is unavailable',
    );
    return sendOutcome(reply, 503, 'transient', fhirTexts.unavailable);
  }
  request.log.error(
    { err: { type: error.name, message: error.message, stack: error.stack } },
    'request failed',
  );
  return sendOutcome(reply, 500, 'exception', fhirTexts.unexpected);
}

const errors = {
  400: operationOutcomeSchema,
  401: operationOutcomeSchema,
  403: operationOutcomeSchema,
  404: operationOutcomeSchema,
  406: operationOutcomeSchema,
};

const tags = ['fhir'];

/** A resource as the response schemas type it: a resource type and any other fields. */
const asBody = <T extends { resourceType: string }>(resource: T) =>
  resource as T & Record<string, unknown>;

/** `Prefer: handling=strict` asks for unknown search parameters to be refused; lenient is the default. */
export function handlingOf(request: FastifyRequest): SearchHandling {
  const prefer = request.headers.prefer;
  const preferences = (Array.isArray(prefer) ? prefer.join(',') : (prefer ?? ''))
    .split(/[,;]/)
    .map((preference) => preference.trim().toLowerCase().replaceAll(' ', ''));
  return preferences.includes('handling=strict') ? 'strict' : 'lenient';
}

/** Whether an If-None-Match header names this ETag (compared weakly, as RFC 9110 says), or `*`. */
function matchesNoneOf(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === opaque);
}

/**
 * A read's answer: the resource with its version as a weak ETag (`W/"3"`, the meta.versionId)
 * and its meta.lastUpdated as Last-Modified; 304 with no body when If-None-Match names the
 * version the client holds.
 */
function sendResource(
  request: FastifyRequest,
  reply: FastifyReply,
  resource: { resourceType: string; meta?: { versionId?: string; lastUpdated?: string } },
): FastifyReply {
  const { versionId, lastUpdated } = resource.meta ?? {};
  if (lastUpdated !== undefined) {
    void reply.header('last-modified', new Date(lastUpdated).toUTCString());
  }
  if (versionId !== undefined) {
    const etag = `W/"${versionId}"`;
    void reply.header('etag', etag);
    if (matchesNoneOf(request.headers['if-none-match'], etag)) return reply.status(304).send();
  }
  return reply.type(fhirJson).send(asBody(resource));
}

/** The FHIR R4 read API: a session of any role, or an API token, may read (never write). */
const readAccess = { access: 'fhir.read', apiToken: 'read' } as const;

/**
 * The FHIR R4 read API, under /fhir: the CapabilityStatement, RiskAssessments and Patients by id
 * and by search. Registered with the prefix /fhir, so that a path there that matches no route is
 * answered by this plugin's OperationOutcome rather than the product's 404.
 */
export function fhirRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.setErrorHandler(handleFhirError);
    // A POST [type]/_search carries its parameters as a form: read as parameters, in order.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => {
        done(null, new URLSearchParams(body as string));
      },
    );
    app.setNotFoundHandler((_request, reply) =>
      sendOutcome(reply, 404, 'not-supported', fhirTexts.unknownPath),
    );
    app.addHook('preValidation', async (request, reply) => {
      if (!acceptsJson(request)) {
        return sendOutcome(reply, 406, 'not-supported', fhirTexts.notAcceptable);
      }
      return undefined;
    });

    const actorOf = (request: FastifyRequest): FhirReader['actor'] =>
      request.fhirClient !== null
        ? fhirClientActor(request.fhirClient.clientId)
        : request.apiToken !== null
          ? apiTokenActor(request.apiToken)
          : request.user;
    const reader = (request: FastifyRequest): FhirReader => ({
      actor: actorOf(request),
      address: request.ip,
      scope: scopeOf(request),
    });
    const readerKnown = (request: FastifyRequest): boolean =>
      request.user !== null || request.apiToken !== null || request.fhirClient !== null;

    // A read refused after its reader was known (a 400, 404 or 406) is a use too: audited as a
    // failure naming the route's pattern, which carries no patient data.
    app.addHook('onSend', async (request, reply) => {
      if (reply.statusCode < 400 || !readerKnown(request)) return;
      try {
        await recordAudit(context.database.db, {
          at: context.now(),
          actor: actorOf(request),
          action: 'fhir_read',
          target: { type: 'route', id: `${request.method} ${request.routeOptions.url ?? ''}` },
          outcome: 'failure',
          address: request.ip,
        });
      } catch (error) {
        // The answer stands; the database being away must not turn it into another.
        request.log.warn(
          { err: (error as Error).name },
          'a refused FHIR read could not be audited',
        );
      }
    });
    const base = (request: FastifyRequest): string => fhirBase(context, request);
    /**
     * A search's parameters: the query's, and for `POST [type]/_search` the form's as well (FHIR
     * lets a client put them in either); strict or lenient as `Prefer: handling=` asks.
     */
    const searchRequest = (request: FastifyRequest): SearchRequest => {
      const question = request.url.indexOf('?');
      const parameters = new URLSearchParams(question === -1 ? '' : request.url.slice(question));
      if (request.body instanceof URLSearchParams) {
        for (const [name, value] of request.body) parameters.append(name, value);
      }
      return { base: base(request), parameters, handling: handlingOf(request) };
    };

    app.get(
      '/metadata',
      {
        config: { access: 'public' },
        schema: {
          summary: 'The FHIR CapabilityStatement: FHIR 4.0.1, JSON, what may be read and searched',
          description:
            'Public, as FHIR clients read it before they authenticate; it names no patient data.',
          tags,
          querystring: metadataQuerySchema,
          response: { 200: capabilityStatementSchema, 406: operationOutcomeSchema },
        },
      },
      async (request, reply) =>
        reply
          .type(fhirJson)
          .send(
            asBody(
              capabilityStatement(base(request), tokenEndpointOf(context, request), context.now()),
            ),
          ),
    );

    // An assessment's resources by id: its RiskAssessments, and what they refer to (the
    // Observations in their basis, the diagnosed Condition), so that a client can follow them.
    const assessmentParts = [
      {
        type: 'RiskAssessment',
        summary:
          "One condition's RiskAssessment of a live assessment, as the FHIR export writes it (audited as fhir_read)",
        ids: '{assessment id}.{condition}: DM2, HIV, TB, Asthma, Hypertension or Hyperlipidaemia',
        response: riskAssessmentResourceSchema,
      },
      {
        type: 'Observation',
        summary:
          "A measurement of a live assessment that its RiskAssessments' basis names (audited as fhir_read)",
        ids: '{assessment id}.{measurement}: age, height, weight or bmi, as the assessment recorded them',
        response: observationResourceSchema,
      },
      {
        type: 'Condition',
        summary:
          "A condition diagnosed at a live assessment, which its RiskAssessment's condition names (audited as fhir_read)",
        ids: '{assessment id}.{condition}, for the conditions the assessment records as diagnosed',
        response: conditionResourceSchema,
      },
    ] as const;
    for (const part of assessmentParts) {
      app.get(
        `/${part.type}/:id`,
        {
          config: readAccess,
          schema: {
            summary: part.summary,
            description: `Ids are ${part.ids}. A session of any role, or Authorization: Bearer with an API token.`,
            tags,
            params: fhirIdParamsSchema,
            response: { 200: part.response, ...errors },
          },
        },
        async (request, reply) =>
          sendResource(
            request,
            reply,
            await readAssessmentPart(context, reader(request), part.type, request.params.id),
          ),
      );
    }

    app.get(
      '/Patient/:id',
      {
        config: readAccess,
        schema: {
          summary:
            'One live Patient: a patient record, or the Patient of an assessment without one',
          description:
            "A patient record's Patient has the record's id; an assessment's own Patient is {assessment id}.patient. Audited as fhir_read.",
          tags,
          params: fhirIdParamsSchema,
          response: { 200: patientResourceSchema, ...errors },
        },
      },
      async (request, reply) =>
        sendResource(
          request,
          reply,
          await readPatient(context, reader(request), request.params.id),
        ),
    );

    app.get(
      '/Organization/:id',
      {
        config: readAccess,
        schema: {
          summary: 'One organisation unit as an Organization (audited as fhir_read)',
          description:
            "The unit's id; a Patient's managingOrganization and an Organization's partOf name it. A closed unit is inactive.",
          tags,
          params: fhirIdParamsSchema,
          response: { 200: organizationResourceSchema, ...errors },
        },
      },
      async (request, reply) =>
        sendResource(
          request,
          reply,
          await readOrganization(context, reader(request), request.params.id),
        ),
    );

    // The searches, by GET [type]?… and by POST [type]/_search with a form.
    const searches = [
      {
        type: 'RiskAssessment',
        summary:
          "Search a Patient's RiskAssessments: a searchset Bundle, newest first unless _sort says otherwise, paged (audited as fhir_read)",
        description:
          'patient, subject or subject:Patient names the Patient (required); _lastUpdated (gt, ge, lt, le; repeat for a range); _sort date, -date or _lastUpdated; _count (default 20, at most 100); _summary=count; the next link carries an opaque _cursor; unit narrows it to that unit and those below, within your scope. Other parameters: 400 with Prefer: handling=strict, else ignored and left out of the self link.',
        querystring: riskAssessmentSearchSchema,
        search: searchRiskAssessments,
      },
      {
        type: 'Patient',
        summary: 'Find a live Patient by its patient number: identifier=SYSTEM|VALUE or VALUE',
        description:
          'The system is TRIAGE_PATIENT_ID_SYSTEM; the number is compared without case. Audited as fhir_read, without the number. unit narrows it to that unit and those below, within your scope. Other parameters: 400 with Prefer: handling=strict, else ignored.',
        querystring: patientSearchSchema,
        search: searchPatients,
      },
    ] as const;
    for (const search of searches) {
      const handler = async (request: FastifyRequest, reply: FastifyReply) =>
        reply
          .type(fhirJson)
          .send(asBody(await search.search(context, reader(request), searchRequest(request))));
      app.get(
        `/${search.type}`,
        {
          config: readAccess,
          schema: {
            summary: search.summary,
            description: search.description,
            tags,
            querystring: search.querystring,
            response: { 200: searchsetBundleSchema, ...errors },
          },
        },
        handler,
      );
      app.post(
        `/${search.type}/_search`,
        {
          config: readAccess,
          schema: {
            summary: `${search.summary}; the parameters as a form (application/x-www-form-urlencoded)`,
            description: search.description,
            tags,
            querystring: search.querystring,
            response: { 200: searchsetBundleSchema, ...errors },
          },
        },
        handler,
      );
    }
  };
}
