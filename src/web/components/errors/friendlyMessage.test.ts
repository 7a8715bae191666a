import { describe, expect, it } from 'vitest';
import { friendlyMessages } from '../../../shared/texts.ts';
import { ApiError } from '../../api/client.ts';
import { friendlyMessageFor } from './friendlyMessage.ts';

describe('friendlyMessageFor', () => {
  it.each([
    [new ApiError(0, 'network', 'offline'), friendlyMessages.network],
    [new ApiError(503, 'database_unavailable', 'down'), friendlyMessages.database],
    [new ApiError(500, 'internal', 'boom'), friendlyMessages.database],
    [new ApiError(503, 'disk_full', 'full'), friendlyMessages.diskFull],
    [new ApiError(400, 'validation_failed', 'age: too big', 'age'), friendlyMessages.validation],
    [new ApiError(400, 'invalid_json', 'bad json'), friendlyMessages.validation],
    [new ApiError(401, 'unauthenticated', 'sign in'), friendlyMessages.auth],
    [new ApiError(403, 'forbidden', 'no'), friendlyMessages.auth],
    [new ApiError(409, 'conflict', 'exists'), friendlyMessages.unexpected],
    [new Error('render failed'), friendlyMessages.unexpected],
    ['a string', friendlyMessages.unexpected],
  ])('names the cause of %s', (error, message) => {
    expect(friendlyMessageFor(error)).toBe(message);
  });
});
