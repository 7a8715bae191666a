import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { AppError } from '../server/errors.ts';

/**
 * Arguments a command does not take: main.ts prints the message (one line naming the argument)
 * and the command's usage, and exits 2.
 */
export class UsageError extends Error {}

/**
 * A command's answer to a fault: a refusal of the service (an AppError) prints its message and
 * exits 1; a UsageError prints its line and the usage and exits 2. Anything else is thrown on.
 */
export function exitCodeForFault(
  error: unknown,
  stderr: NodeJS.WritableStream,
  usage: string,
): number {
  if (error instanceof AppError) {
    stderr.write(`${error.message}\n`);
    return 1;
  }
  if (error instanceof UsageError) {
    stderr.write(`${error.message}\n${usage}`);
    return 2;
  }
  throw error;
}

/**
 * parseArgs, strict, with its refusal of an unknown option, a missing value or a stray argument
 * turned into a UsageError of one line.
 */
export function parseOptions<const T extends ParseArgsOptionsConfig>(
  args: string[],
  options: T,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    if (isParseArgsError(error)) throw new UsageError(firstSentence(error.message));
    throw error;
  }
}

export function isParseArgsError(error: unknown): error is Error {
  return (
    error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')
  );
}

/** "Unknown option '--x'. To specify a positional argument …": the first sentence says it. */
function firstSentence(message: string): string {
  const line = message.split('\n')[0] ?? message;
  const end = line.indexOf('. ');
  return end === -1 ? line : line.slice(0, end);
}
