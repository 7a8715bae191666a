import { ConfigError } from '../server/config.ts';
import { databaseFailureOf } from '../server/db/failures.ts';

/** SQLite's primary result codes of a file it cannot write or open (node:sqlite's `errcode`). */
const sqliteReadOnly = 8;
const sqliteCantOpen = 14;

/** File system refusals the operator fixes outside the product (a full disk, permissions). */
const fileSystemCodes = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'ENOENT', 'EIO']);

/** A fault found by the command line itself, said in one line (exit 78). */
export class CommandFault extends Error {}

/** A rule set file's refusal (a line per fault) as one line naming the file. */
export function ruleSetFault(error: unknown): CommandFault {
  const message = error instanceof Error ? error.message : String(error);
  const faults = message.split('\n').filter((line) => line !== '');
  const [first, ...rest] = faults;
  return new CommandFault(`Cannot start: ${[first, rest.join('; ')].join(' ').trim()}`);
}

function innermostMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    message = cause.message;
    cause = cause.cause;
  }
  return message.split('\n')[0] ?? message;
}

/**
 * The one line a fault of the settings or the machine is reported in, as `triage serve` reports
 * its faults (exit 78): a setting, a database that cannot be reached or written, a full disk.
 * Undefined for anything else, a fault of the product itself, whose stack trace is wanted.
 */
export function faultLine(error: unknown): string | undefined {
  if (error instanceof ConfigError || error instanceof CommandFault) return error.message;
  const failure = databaseFailureOf(error);
  if (failure === 'disk_full') {
    return `Stopped: the disk is full; nothing more was written (${innermostMessage(error)})`;
  }
  if (failure === 'unavailable') {
    return `Stopped: the database cannot be reached (DATABASE_URL): ${innermostMessage(error)}`;
  }
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    const { code, errcode } = cause as { code?: unknown; errcode?: unknown };
    if (typeof code === 'string' && fileSystemCodes.has(code)) {
      return code === 'ENOSPC' || code === 'EDQUOT'
        ? `Stopped: the disk is full; nothing more was written (${cause.message})`
        : `Stopped: ${cause.message}`;
    }
    if (typeof errcode === 'number') {
      const primary = errcode & 0xff;
      if (primary === sqliteReadOnly || primary === sqliteCantOpen) {
        return `Stopped: the database file cannot be opened or written (DATA_DIR): ${cause.message}`;
      }
    }
    cause = cause.cause;
  }
  return undefined;
}
