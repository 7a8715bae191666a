import { signInResponseSchema, type SignInResponse } from '../../shared/api/second-factor.ts';
import {
  sessionResponseSchema,
  sessionStatusSchema,
  type SessionResponse,
  type SessionStatus,
} from '../../shared/api/session.ts';
import { apiRequest } from './client.ts';

/**
 * Whether someone is signed in, asked on every visit: answered 200 with or without a session, so
 * that a visit before sign-in logs no failed request.
 */
export function getSessionStatus(signal?: AbortSignal): Promise<SessionStatus> {
  return apiRequest('/api/session/status', { schema: sessionStatusSchema, signal });
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
export function sendSecondFactorCode(code: string): Promise<SessionResponse> {
  return apiRequest('/api/session/second-factor', {
    method: 'POST',
    body: { code },
    schema: sessionResponseSchema,
    isSignIn: true,
  });
}

export function deleteSession(): Promise<void> {
  return apiRequest('/api/session', { method: 'DELETE' });
}
