import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorEnvelope } from '../shared/api/errors.ts';
import { friendlyMessages } from '../shared/texts.ts';
import { databaseFailureOf } from './db/failures.ts';

/** An expected failure carried as a value: the status, a stable code, and the field at fault. */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly existingId: string | undefined;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    field?: string,
    extra: { existingId?: string } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.existingId = extra.existingId;
  }
}

export function envelope(
  code: ErrorCode,
  message: string,
  field?: string,
  existingId?: string,
): ErrorEnvelope {
  return {
    error: {
      code,
      message,
      ...(field === undefined ? {} : { field }),
      ...(existingId === undefined ? {} : { existingId }),
    },
  };
}

/** Joins a validation path the way the API names fields: `demographics.age`, `items.0.code`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join('.');
}

interface ValidationIssue {
  message: string;
  instancePath?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

function firstValidationIssue(error: FastifyError): { field: string; message: string } {
  const issue = (error.validation?.[0] ?? { message: error.message }) as ValidationIssue;
  const path = issue.params?.issue?.path;
  const field =
    path === undefined
      ? (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.')
      : fieldPath(path);
  return { field, message: issue.params?.issue?.message ?? issue.message };
}

/**
 * The single place failures become responses: nothing leaks a stack trace, a schema failure
 * names the field at fault, and a database that is away or whose disk is full is a 503 that
 * says so (the pool reconnects by itself, so the same request may succeed later).
 */
export function handleError(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AppError) {
    return reply
      .status(error.status)
      .send(envelope(error.code, error.message, error.field, error.existingId));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const { field, message } = firstValidationIssue(error);
    return field === ''
      ? reply.status(400).send(envelope('validation_failed', message))
      : reply.status(400).send(envelope('validation_failed', `${field}: ${message}`, field));
  }
  if (
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    error instanceof SyntaxError
  ) {
    return reply.status(400).send(envelope('invalid_json', 'The request body is not valid JSON.'));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.status(status).send(envelope('bad_request', error.message));
  }
  const failure = databaseFailureOf(error);
  if (failure !== undefined) {
    // The driver's own words (a socket error, a server shutting down, a full disk) name no record.
    request.log.warn(
      { err: { type: error.name, code: error.code, message: error.message } },
      failure === 'disk_full' ? 'the database disk is full' : 'the database is unavailable',
    );
    return failure === 'disk_full'
      ? reply.status(503).send(envelope('disk_full', friendlyMessages.diskFull))
      : reply.status(503).send(envelope('database_unavailable', friendlyMessages.database));
  }
  request.log.error(
    { err: { type: error.name, message: error.message, stack: error.stack } },
    'request failed',
  );
  return reply.status(500).send(envelope('internal', friendlyMessages.unexpected));
}
