import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { friendlyMessages } from '../../shared/texts.ts';
import { apiRequest, apiUrl, onSignedOut, responseError } from './client.ts';
import { answer, failureOf, planFetch } from './planned-fetch.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiUrl', () => {
  it('leaves out empty and missing query values', () => {
    expect(apiUrl('/api/audit', { user: 'ann', action: '', from: undefined, limit: 50 })).toBe(
      '/api/audit?user=ann&limit=50',
    );
    expect(apiUrl('/api/users', {})).toBe('/api/users');
  });

  it('encodes values', () => {
    expect(apiUrl('/api/audit', { user: 'a b&c' })).toBe('/api/audit?user=a+b%26c');
  });
});

describe('responseError', () => {
  it('carries the envelope code, message and field', async () => {
    const error = await responseError(
      answer(400, {
        error: { code: 'validation_failed', message: 'password: too short', field: 'password' },
      }),
    );
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'password: too short',
      field: 'password',
    });
  });

  it('carries the id of the record a 409 names, and none when the envelope has none', async () => {
    const existingId = 'a6f1c2de-0000-4000-8000-000000000001';
    const taken = await responseError(
      answer(409, {
        error: { code: 'conflict', message: 'Taken.', field: 'code', existingId },
      }),
    );
    expect(taken).toMatchObject({ status: 409, code: 'conflict', field: 'code', existingId });
    const signedOff = await responseError(
      answer(409, { error: { code: 'signed_off', message: 'Signed off.' } }),
    );
    expect(signedOff.existingId).toBeUndefined();
  });

  it('turns a body that is not an envelope into the friendly unexpected message', async () => {
    expect(
      await responseError(new Response('<html>Bad gateway</html>', { status: 502 })),
    ).toMatchObject({
      status: 502,
      code: 'internal',
      message: friendlyMessages.unexpected,
    });
  });

  it('signals signed-out on a 401, even without an envelope, except for a sign-in', async () => {
    const listener = vi.fn();
    const stop = onSignedOut(listener);
    try {
      await responseError(new Response(null, { status: 401 }), { isSignIn: true });
      expect(listener).not.toHaveBeenCalled();
      expect(await responseError(new Response(null, { status: 401 }))).toMatchObject({
        status: 401,
      });
      expect(listener).toHaveBeenCalledTimes(1);
      await responseError(answer(403, { error: { code: 'forbidden', message: 'No.' } }));
      expect(listener).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });
});

describe('apiRequest', () => {
  const itemSchema = z.object({ id: z.string() });

  it('sends JSON with the same-origin credentials and returns the checked body', async () => {
    const fetchMock = planFetch(answer(200, { id: 'u1' }));
    const result = await apiRequest('/api/things', {
      method: 'POST',
      body: { name: 'x' },
      schema: itemSchema,
    });
    expect(result).toEqual({ id: 'u1' });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/things',
      expect.objectContaining({
        method: 'POST',
        credentials: 'same-origin',
        body: '{"name":"x"}',
        headers: expect.objectContaining({ 'content-type': 'application/json' }) as unknown,
      }),
    );
  });

  it('resolves with nothing for a 204', async () => {
    planFetch(answer(204));
    await expect(apiRequest('/api/session', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('maps a network failure to the friendly network message', async () => {
    planFetch(new TypeError('Failed to fetch'));
    const error = await failureOf(apiRequest('/api/users', { schema: itemSchema }));
    expect(error).toMatchObject({ status: 0, code: 'network', message: friendlyMessages.network });
  });

  it('refuses a success body that does not match the schema', async () => {
    planFetch(answer(200, { id: 42 }));
    const error = await failureOf(apiRequest('/api/users', { schema: itemSchema }));
    expect(error.code).toBe('internal');
  });

  it('signals signed-out on a 401, except from the sign-in call', async () => {
    const listener = vi.fn();
    const stop = onSignedOut(listener);
    const envelope = { error: { code: 'unauthenticated', message: 'Please sign in to continue.' } };

    planFetch(answer(401, envelope));
    const signInError = await failureOf(
      apiRequest('/api/session', { method: 'POST', body: {}, isSignIn: true }),
    );
    expect(signInError.status).toBe(401);
    expect(listener).not.toHaveBeenCalled();

    planFetch(answer(401, envelope));
    const error = await failureOf(apiRequest('/api/users'));
    expect(error.message).toBe('Please sign in to continue.');
    expect(listener).toHaveBeenCalledTimes(1);

    stop();
    planFetch(answer(401, envelope));
    await failureOf(apiRequest('/api/users'));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('rethrows an abort instead of calling it a network failure', async () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException('aborted', 'AbortError');
    planFetch(abort);
    await expect(apiRequest('/api/users', { signal: controller.signal })).rejects.toBe(abort);
  });
});
