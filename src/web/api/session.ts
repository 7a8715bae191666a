import { sessionResponseSchema, type SessionUser } from '../../shared/api/session.ts';
import { apiRequest } from './client.ts';

/** The signed-in user; a 401 means nobody is signed in. */
export async function getSession(signal?: AbortSignal): Promise<SessionUser> {
  const { user } = await apiRequest('/api/session', {
    schema: sessionResponseSchema,
    signal,
  });
  return user;
}

export async function createSession(username: string, password: string): Promise<SessionUser> {
  const { user } = await apiRequest('/api/session', {
    method: 'POST',
    body: { username, password },
    schema: sessionResponseSchema,
    isSignIn: true,
  });
  return user;
}

export function deleteSession(): Promise<void> {
  return apiRequest('/api/session', { method: 'DELETE' });
}
