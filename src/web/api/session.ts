import { signInResponseSchema, type SignInResponse } from '../../shared/api/second-factor.ts';
import {
  sessionResponseSchema,
  sessionStatusSchema,
  signOutResponseSchema,
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

/**
 * Signs out: ends the session on the server; after a sign-in through the organisation's provider
 * that has a sign-out page, answers its address, where the browser goes next (else null).
 */
export async function signOutOfSession(): Promise<string | null> {
  const answer = await apiRequest('/api/session', {
    method: 'DELETE',
    schema: signOutResponseSchema.optional(),
  });
  return answer?.providerSignOutUrl ?? null;
}

/** Where the browser goes to sign in through the organisation's provider. */
export const providerSignInPath = '/api/session/oidc/start';
