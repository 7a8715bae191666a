import crypto from 'node:crypto';
import type { SessionUser } from '../../shared/api/session.ts';
import type { AppContext } from '../context.ts';
import { sessionsRepository } from '../db/repositories/sessions.ts';

export const sessionCookieName = 'triage_session';

/** A session id is 256 random bits; only its SHA-256 is stored, so a database leak grants nothing. */
export function newSessionId(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashSessionId(sessionId: string): string {
  return crypto.createHash('sha256').update(sessionId).digest('hex');
}

/** Recording every request's time would write on every read; a minute's precision is enough. */
const touchInterval = 60_000;

/** Starts a session; a provider's sign-in keeps its ID token with it for the provider's sign-out. */
export async function startSession(
  context: AppContext,
  userId: string,
  idToken: string | null = null,
): Promise<string> {
  const sessionId = newSessionId();
  const at = context.now().toISOString();
  await sessionsRepository.insert(context.database.db, {
    id_hash: hashSessionId(sessionId),
    user_id: userId,
    created_at: at,
    last_seen_at: at,
    ended_at: null,
    // Only when given: a password's session is written as before the column existed.
    ...(idToken === null ? {} : { id_token: idToken }),
  });
  return sessionId;
}

/** The signed-in user of a session id, or null when it is unknown, ended, expired or disabled. */
export async function resolveSession(
  context: AppContext,
  sessionId: string,
): Promise<SessionUser | null> {
  const db = context.database.db;
  const idHash = hashSessionId(sessionId);
  const session = await sessionsRepository.findWithUser(db, idHash);
  if (session === undefined || session.ended_at !== null || session.disabled) return null;

  const now = context.now();
  const idleLimit = context.config.sessionIdleMinutes * 60_000;
  const absoluteLimit = context.config.sessionAbsoluteHours * 3_600_000;
  const lastSeen = Date.parse(session.last_seen_at);
  if (
    now.getTime() - lastSeen >= idleLimit ||
    now.getTime() - Date.parse(session.created_at) >= absoluteLimit
  ) {
    await sessionsRepository.end(db, idHash, now.toISOString());
    return null;
  }
  if (now.getTime() - lastSeen >= touchInterval) {
    await sessionsRepository.touch(db, idHash, now.toISOString());
  }
  return {
    id: session.user_id,
    username: session.username,
    displayName: session.display_name,
    role: session.role,
  };
}

export async function endSession(context: AppContext, sessionId: string): Promise<void> {
  await sessionsRepository.end(
    context.database.db,
    hashSessionId(sessionId),
    context.now().toISOString(),
  );
}
