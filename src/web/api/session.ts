import { signInResponseSchema, type SignInResponse } from '../../shared/api/second-factor.ts';
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

/** The password step: signed in, or (for a user with a second factor) the code is asked for. */
export function createSession(username: string, password: string): Promise<SignInResponse> {
  return apiRequest('/api/session', {
    method: 'POST',
    body: { username, password },
    schema: signInResponseSchema,
    isSignIn: true,
  });
}

/** The second step: a code from the authenticator app, or a recovery code. */
export async function sendSecondFactorCode(code: string): Promise<SessionUser> {
  const { user } = await apiRequest('/api/session/second-factor', {
    method: 'POST',
    body: { code },
    schema: sessionResponseSchema,
    isSignIn: true,
  });
  return user;
}

export function deleteSession(): Promise<void> {
  return apiRequest('/api/session', { method: 'DELETE' });
}
