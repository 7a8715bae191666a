import type { z } from 'zod';
import { errorEnvelopeSchema, type ErrorCode } from '../../shared/api/errors.ts';
import { friendlyMessages } from '../../shared/texts.ts';

/** The server's error codes, plus `network` when no answer came back at all. */
export type ApiErrorCode = ErrorCode | 'network';

/**
 * A failed call: the status (0 when the network failed), the server's code, message and field, and
 * with a 409 for a taken code or number the id of the record that has it.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly field: string | undefined;
  readonly existingId: string | undefined;

  constructor(
    status: number,
    code: ApiErrorCode,
    message: string,
    field?: string,
    existingId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
    this.existingId = existingId;
  }
}

export type QueryValue = string | number | undefined;

/** A same-origin API address; empty and missing query values are left out. */
export function apiUrl(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search === '' ? path : `${path}?${search}`;
}

type SignedOutListener = () => void;
const signedOutListeners = new Set<SignedOutListener>();

/** Calls the listener whenever the server answers 401: the session has ended. */
export function onSignedOut(listener: SignedOutListener): () => void {
  signedOutListeners.add(listener);
  return () => {
    signedOutListeners.delete(listener);
  };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The error a failed response stands for, from its status and error envelope. A 401 means the
 * session has ended, so the signed-out listeners hear of it, whichever call got it; only the
 * sign-in call's 401 (a wrong password) does not.
 */
export async function responseError(
  response: Response,
  { isSignIn = false }: { isSignIn?: boolean } = {},
): Promise<ApiError> {
  const envelope = errorEnvelopeSchema.safeParse(await readJson(response));
  if (response.status === 401 && !isSignIn) {
    for (const listener of signedOutListeners) listener();
  }
  if (!envelope.success) {
    return new ApiError(response.status, 'internal', friendlyMessages.unexpected);
  }
  const { code, message, field, existingId } = envelope.data.error;
  return new ApiError(response.status, code, message, field, existingId);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** Extra request headers, such as If-Match with the version an update is based on. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The sign-in call answers 401 for a wrong password, which does not mean a session ended. */
  isSignIn?: boolean;
}

/**
 * An update, sign-off or delete names the version of the assessment the user saw; the server
 * refuses a change based on a stale one (412).
 */
export function ifMatch(version: number): Record<string, string> {
  return { 'if-match': `"${version}"` };
}

/**
 * Calls the API and returns the response body checked against the schema (or nothing when no
 * schema is given). Every failure is thrown as an ApiError; an aborted call rethrows the abort.
 */
export async function apiRequest<T>(
  path: string,
  options: RequestOptions & { schema: z.ZodType<T> },
): Promise<T>;
export async function apiRequest(path: string, options?: RequestOptions): Promise<void>;
export async function apiRequest<T>(
  path: string,
  options: RequestOptions & { schema?: z.ZodType<T> } = {},
): Promise<T | void> {
  const { method = 'GET', query, body, headers, signal, isSignIn = false, schema } = options;
  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ApiError(0, 'network', friendlyMessages.network);
  }

  if (!response.ok) throw await responseError(response, { isSignIn });
  if (schema === undefined) return;
  const parsed = schema.safeParse(await readJson(response));
  if (!parsed.success) throw new ApiError(response.status, 'internal', friendlyMessages.unexpected);
  return parsed.data;
}
