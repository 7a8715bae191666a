import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.ts';

/** Optimistic concurrency over HTTP: a record's version is its ETag, and a change names it. */
export function etag(version: number): string {
  return `"${version}"`;
}

/** The version an If-Match header names: `"3"`, `W/"3"` or a bare 3. */
export function ifMatchVersion(request: FastifyRequest): number | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) return undefined;
  const match = /^(?:W\/)?"?(\d+)"?$/.exec(header.trim());
  if (match?.[1] === undefined) {
    throw new AppError(
      400,
      'validation_failed',
      'If-Match must name a version, such as "3".',
      'If-Match',
    );
  }
  return Number(match[1]);
}

/**
 * The version a change is based on. Every change of a record names the version the user saw, so
 * that it never lands on a record someone else changed meanwhile.
 */
export function requiredIfMatchVersion(request: FastifyRequest): number {
  const version = ifMatchVersion(request);
  if (version === undefined) {
    throw new AppError(
      428,
      'precondition_required',
      'An update must say which version it changes (If-Match).',
      'If-Match',
    );
  }
  return version;
}

/** The OpenAPI side of If-Match: optional in the schema, so that its absence is a 428. */
export const ifMatchHeaders = z.object({
  'if-match': z
    .string()
    .optional()
    .describe('The version the change is based on, as the ETag named it ("3")'),
});
