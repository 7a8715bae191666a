import { ApiError } from '../api/client.ts';
import { deleteSession } from '../api/session.ts';

/**
 * A sign-out made without a network ends the session on this device at once; the server's session
 * (the cookie it set) is ended by the next DELETE /api/session that reaches it. This mark says one
 * is owed. It names nobody.
 */
const pendingKey = 'triage.serverSignOutPending';

export function markServerSignOutPending(): void {
  try {
    localStorage.setItem(pendingKey, 'true');
  } catch {
    // Without storage the server's session lasts until it expires, as an unclosed tab's would.
  }
}

export function serverSignOutPending(): boolean {
  try {
    return localStorage.getItem(pendingKey) === 'true';
  } catch {
    return false;
  }
}

/** A new sign-in replaces the cookie, so the old session can no longer be ended from here. */
export function clearServerSignOutPending(): void {
  try {
    localStorage.removeItem(pendingKey);
  } catch {
    // Nothing was kept.
  }
}

let sending: Promise<void> | null = null;

/**
 * Ends the server's session of a sign-out made offline, if one is owed. Callers at the same time
 * share one request, so that a sign-in waiting for it never races a DELETE that would clear its
 * new cookie. A failure keeps the mark for the next try; a 401 means the session had ended anyway.
 */
export function endPendingServerSession(end: () => Promise<void> = deleteSession): Promise<void> {
  if (!serverSignOutPending()) return Promise.resolve();
  sending ??= end()
    .then(clearServerSignOutPending, (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) clearServerSignOutPending();
    })
    .finally(() => {
      sending = null;
    });
  return sending;
}
