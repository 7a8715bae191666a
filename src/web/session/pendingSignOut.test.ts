import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client.ts';
import {
  clearServerSignOutPending,
  endPendingServerSession,
  markServerSignOutPending,
  serverSignOutPending,
} from './pendingSignOut.ts';

beforeEach(() => {
  const stored = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => stored.set(key, value),
    removeItem: (key: string) => stored.delete(key),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the server half of a sign-out made offline', () => {
  it('asks nothing of the server when no sign-out is owed', async () => {
    const end = vi.fn(() => Promise.resolve());
    await endPendingServerSession(end);
    expect(end).not.toHaveBeenCalled();
  });

  it('is sent once, however many ask at the same time, and then no more', async () => {
    markServerSignOutPending();
    const end = vi.fn(() => Promise.resolve());
    await Promise.all([endPendingServerSession(end), endPendingServerSession(end)]);
    expect(end).toHaveBeenCalledTimes(1);
    expect(serverSignOutPending()).toBe(false);
    await endPendingServerSession(end);
    expect(end).toHaveBeenCalledTimes(1);
  });

  it('stays owed while the server cannot be reached or fails', async () => {
    markServerSignOutPending();
    await endPendingServerSession(() => Promise.reject(new ApiError(0, 'network', 'offline')));
    expect(serverSignOutPending()).toBe(true);
    await endPendingServerSession(() => Promise.reject(new ApiError(503, 'internal', 'down')));
    expect(serverSignOutPending()).toBe(true);
  });

  it('is settled by a 401 (the session had ended) and by a new sign-in', async () => {
    markServerSignOutPending();
    await endPendingServerSession(() =>
      Promise.reject(new ApiError(401, 'unauthenticated', 'signed out')),
    );
    expect(serverSignOutPending()).toBe(false);
    markServerSignOutPending();
    clearServerSignOutPending();
    expect(serverSignOutPending()).toBe(false);
  });
});
