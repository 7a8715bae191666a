import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, fieldPath } from './errors.ts';

const nul = '\u0000';
const nulInValue = 'Must not contain a NUL character';
const nulInName = 'Field names must not contain a NUL character';

/**
 * A 400 in the envelope schema failures use: `field: problem` naming the field when there is
 * one, else the sentence.
 */
function refused(field: string | undefined, problem: string, sentence: string): AppError {
  return field === undefined || field === ''
    ? new AppError(400, 'validation_failed', sentence)
    : new AppError(400, 'validation_failed', `${field}: ${problem}`, field);
}

/** Whether URL text holds a NUL, written as itself or percent-encoded. */
function urlHasNul(text: string): boolean {
  return text.includes(nul) || text.includes('%00');
}

function decodedQueryName(name: string): string | undefined {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/** The query parameter whose name or value holds the NUL, when its own name is clean. */
function queryFieldWithNul(query: string): string | undefined {
  for (const pair of query.split('&')) {
    if (!urlHasNul(pair)) continue;
    const equals = pair.indexOf('=');
    const name = decodedQueryName(equals === -1 ? pair : pair.slice(0, equals));
    return name === undefined || name.includes(nul) ? undefined : name;
  }
  return undefined;
}

/** Refuses a NUL in the path or the query string, naming the parameter that holds it. */
function checkUrl(request: FastifyRequest): void {
  const url = request.url;
  const question = url.indexOf('?');
  const path = question === -1 ? url : url.slice(0, question);
  if (urlHasNul(path)) {
    const params = (request.params ?? {}) as Record<string, unknown>;
    const param = Object.keys(params).find((name) => {
      const value = params[name];
      return typeof value === 'string' && value.includes(nul);
    });
    throw refused(param, nulInValue, 'The address must not contain a NUL character.');
  }
  if (question !== -1 && urlHasNul(url.slice(question + 1))) {
    const field = queryFieldWithNul(url.slice(question + 1));
    throw refused(field, nulInValue, 'The query string must not contain a NUL character.');
  }
}

interface Visit {
  value: unknown;
  key: PropertyKey | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit | undefined): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at = visit; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * Refuses a NUL in any string or field name of a parsed body, naming where it is. The walk keeps
 * its own stack, so a deeply nested body cannot exhaust the call stack.
 */
function checkBody(body: unknown): void {
  const pending: Visit[] = [{ value: body, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes(nul)) {
        throw refused(
          fieldPath(pathOf(visit)),
          nulInValue,
          'The body must not contain a NUL character.',
        );
      }
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) {
        pending.push({ value: value[index], key: index, parent: visit });
      }
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      if (entries.some(([key]) => key.includes(nul))) {
        throw refused(fieldPath(pathOf(visit)), nulInName, `${nulInName}.`);
      }
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index] as [string, unknown];
        pending.push({ value: child, key, parent: visit });
      }
    }
  }
}

/**
 * A NUL character (U+0000) is refused with 400 wherever a request carries text: PostgreSQL
 * cannot store one in text and SQLite would, so both engines answer alike before any route runs.
 * Requests that matched no route are left to the not-found answer.
 */
export function installInputGuards(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!request.is404) checkUrl(request);
  });
  app.addHook('preValidation', async (request) => {
    if (!request.is404 && request.body !== undefined) checkBody(request.body);
  });
}
