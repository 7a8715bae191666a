import { signInResponseSchema, type SignInResponse } from '../../shared/api/second-factor.ts';
import {
  sessionResponseSchema,
  type SessionResponse,
  type SessionUser,
} from '../../shared/api/session.ts';
import { apiRequest } from './client.ts';

/**
 * The signed-in user, and when the grace of a second factor their role requires ends; a 401 means
 * nobody is signed in.
 */
export function getSession(signal?: AbortSignal): Promise<SessionResponse> {
  return apiRequest('/api/session', { schema: sessionResponseSchema, signal });
}

/**
 * The password step: signed in, or the code is asked for (a user with a second factor), or
 * setting one up is (past the grace of a factor the user's role requires).
 */
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
