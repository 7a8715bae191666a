/**
 * Failures of the database itself, as opposed to a refused or broken statement: the database
 * cannot be reached or has gone away (`unavailable`), or it has no room to write (`disk_full`).
 * The error handler answers both with 503; everything else a query throws stays a 500.
 */
export type DatabaseFailure = 'unavailable' | 'disk_full';

/**
 * The SQLite file was replaced under the open database (`triage restore --force` under a running
 * server): what the server writes goes to the old file, so no write is acknowledged and every
 * request answers 503 (unavailable) until the server is restarted on the new file.
 */
export class DatabaseReplacedError extends Error {
  constructor() {
    super('The database file was replaced while the server had it open; restart the server');
  }
}

/** SQLite's primary result code for a full disk (node:sqlite reports it as `errcode`). */
const sqliteFull = 13;

/** Socket errors of a connection that cannot be made or was cut. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of a server that is going or gone: 57P01 admin_shutdown (also what
 * pg_terminate_backend sends), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or
 * shutting down), 53300 too_many_connections. Class 08 (connection exceptions) is matched whole.
 */
const postgresUnavailableCodes = new Set(['57P01', '57P02', '57P03', '53300']);

/** PostgreSQL's SQLSTATE for a full disk. */
const postgresDiskFull = '53100';

/** What node-postgres and its pool say when a connection is lost, or cannot be had in time. */
const lostConnectionMessages = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

interface ErrorFields {
  code?: unknown;
  errcode?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** Which failure of the database an error is, if it is one (its causes are looked at too). */
export function databaseFailureOf(error: unknown): DatabaseFailure | undefined {
  for (let cause = error, depth = 0; depth < 5; depth += 1) {
    if (typeof cause !== 'object' || cause === null) return undefined;
    if (cause instanceof DatabaseReplacedError) return 'unavailable';
    const { code, errcode, message, cause: next } = cause as ErrorFields;
    if (typeof errcode === 'number' && (errcode & 0xff) === sqliteFull) return 'disk_full';
    if (code === postgresDiskFull) return 'disk_full';
    if (typeof code === 'string') {
      if (socketCodes.has(code) || postgresUnavailableCodes.has(code)) return 'unavailable';
      if (/^08[0-9A-Z]{3}$/.test(code)) return 'unavailable';
    }
    if (
      typeof message === 'string' &&
      lostConnectionMessages.some((lost) => message.startsWith(lost))
    ) {
      return 'unavailable';
    }
    cause = next;
  }
  return undefined;
}
