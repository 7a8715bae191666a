import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  challengeCookieName,
  challengeCookiePath,
  challengeLifetimeMs,
} from '../auth/challenges.ts';
import { oidcCookieName, oidcCookiePath, oidcSignInLifetimeMs } from '../auth/oidc.ts';
import { sessionCookieName } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';

function secure(context: AppContext, request: FastifyRequest): boolean {
  return context.config.cookieSecure || request.protocol === 'https';
}

export function setSessionCookie(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
): void {
  void reply.setCookie(sessionCookieName, sessionId, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: secure(context, request),
    maxAge: context.config.sessionAbsoluteHours * 3600,
  });
}

/** The cookie of a sign-in awaiting its second step: sent to the sign-in routes only. */
export function setChallengeCookie(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  challengeId: string,
): void {
  void reply.setCookie(challengeCookieName, challengeId, {
    path: challengeCookiePath,
    httpOnly: true,
    sameSite: 'strict',
    secure: secure(context, request),
    maxAge: challengeLifetimeMs / 1000,
  });
}

export function clearChallengeCookie(reply: FastifyReply): void {
  void reply.clearCookie(challengeCookieName, { path: challengeCookiePath });
}

/**
 * The cookie that binds a sign-in sent to the provider to this browser. SameSite=Lax: the
 * provider's redirect back is a top-level navigation from its site, which a strict cookie misses.
 */
export function setOidcCookie(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  bindingId: string,
): void {
  void reply.setCookie(oidcCookieName, bindingId, {
    path: oidcCookiePath,
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(context, request),
    maxAge: oidcSignInLifetimeMs / 1000,
  });
}

export function clearOidcCookie(reply: FastifyReply): void {
  void reply.clearCookie(oidcCookieName, { path: oidcCookiePath });
}
