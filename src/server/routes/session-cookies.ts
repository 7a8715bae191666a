import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  challengeCookieName,
  challengeCookiePath,
  challengeLifetimeMs,
} from '../auth/challenges.ts';
import { oidcCookieName, oidcCookiePath, oidcSignInLifetimeMs } from '../auth/oidc.ts';
import { sessionCookieName } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { smartLaunchCookieName, smartLaunchLifetimeMs } from '../services/smart-launch.ts';

function secure(context: AppContext, request: FastifyRequest): boolean {
  return context.config.cookieSecure || request.protocol === 'https';
}

/**
 * Where a cookie must work inside a record system's chart, which shows the app in a frame of its
 * own site: SameSite=None, and Partitioned (CHIPS), so the browser keeps it for that site's frames
 * only. Over HTTPS only, as browsers require Secure for both.
 */
function framedCookieAttributes(context: AppContext, request: FastifyRequest) {
  return secure(context, request)
    ? { sameSite: 'none' as const, secure: true, partitioned: true }
    : undefined;
}

/**
 * The session cookie: SameSite=Strict; a sign-in inside a launch from a record system (this
 * browser holds a launch cookie) gets the framed cookie instead, so the chart's frame keeps it.
 */
function sessionCookieAttributes(context: AppContext, request: FastifyRequest) {
  const launched = (request.cookies[smartLaunchCookieName] ?? '') !== '';
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: secure(context, request),
    ...(launched ? framedCookieAttributes(context, request) : undefined),
  };
}

export function setSessionCookie(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
): void {
  void reply.setCookie(sessionCookieName, sessionId, {
    ...sessionCookieAttributes(context, request),
    maxAge: context.config.sessionAbsoluteHours * 3600,
  });
}

/** Clears the session cookie as it was set: a partitioned cookie is cleared only as one. */
export function clearSessionCookie(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply.clearCookie(sessionCookieName, sessionCookieAttributes(context, request));
}

/**
 * The cookie that binds a launch to the browser that began it, sent on the return from the
 * record's authorization server (a cross-site navigation, which a strict cookie misses): Lax, or
 * the framed cookie over HTTPS, as the chart may show the app in a frame.
 */
export function setSmartLaunchCookie(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  bindingId: string,
): void {
  void reply.setCookie(smartLaunchCookieName, bindingId, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(context, request),
    ...framedCookieAttributes(context, request),
    maxAge: smartLaunchLifetimeMs / 1000,
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
