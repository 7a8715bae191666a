import { describe, expect, it } from 'vitest';
import { databaseFailureOf } from './failures.ts';

const withFields = (message: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(message), fields);

describe('databaseFailureOf', () => {
  it.each([
    withFields('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' }),
    withFields('read ECONNRESET', { code: 'ECONNRESET' }),
    withFields('terminating connection due to administrator command', { code: '57P01' }),
    withFields('terminating connection due to crash of another server process', { code: '57P02' }),
    withFields('the database system is starting up', { code: '57P03' }),
    withFields('connection failure', { code: '08006' }),
    new Error('Connection terminated unexpectedly'),
    new Error('Connection terminated due to connection timeout', {
      cause: new Error('Connection terminated unexpectedly'),
    }),
    new Error('Client has encountered a connection error and is not queryable'),
    new Error('timeout exceeded when trying to connect'),
  ])('names an unreachable or departed database: %s', (error) => {
    expect(databaseFailureOf(error)).toBe('unavailable');
  });

  it.each([
    withFields('database or disk is full', { code: 'ERR_SQLITE_ERROR', errcode: 13 }),
    withFields('could not extend file: No space left on device', { code: '53100' }),
  ])('names a full disk: %s', (error) => {
    expect(databaseFailureOf(error)).toBe('disk_full');
  });

  it.each([
    withFields('disk I/O error', { code: 'ERR_SQLITE_ERROR', errcode: 10 }),
    withFields('UNIQUE constraint failed: users.username', {
      code: 'ERR_SQLITE_ERROR',
      errcode: 2067,
    }),
    withFields('duplicate key value violates unique constraint', { code: '23505' }),
    withFields('syntax error at or near "selec"', { code: '42601' }),
    new Error('disk full'),
    'a string',
    undefined,
  ])('leaves other failures to be 500s: %s', (error) => {
    expect(databaseFailureOf(error)).toBeUndefined();
  });
});
