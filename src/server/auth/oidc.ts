import crypto from 'node:crypto';
import * as client from 'openid-client';
import type { OidcSignInError } from '../../shared/api/session.ts';
import { usernameSchema, type Role } from '../../shared/api/users.ts';
import type { OidcSettings } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { oidcSignInsRepository } from '../db/repositories/oidc-sign-ins.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { sessionsRepository } from '../db/repositories/sessions.ts';
import { usersRepository, type UserRow } from '../db/repositories/users.ts';
import { timeOrderedId } from '../ids.ts';
import { recordAudit } from '../services/audit.ts';
import { StartupFault } from '../startup.ts';
import { nextStepAfterFirstFactor, type LoginResult } from './login.ts';
import { hashPassword } from './passwords.ts';
import { endSession, hashSessionId, newSessionId } from './sessions.ts';

/** The cookie that binds a sign-in sent to the provider to the browser that comes back. */
export const oidcCookieName = 'triage_oidc';
export const oidcCookiePath = '/api/session/oidc';
/** How long the provider's sign-in page may take. */
export const oidcSignInLifetimeMs = 10 * 60_000;

/** `amr` values that say the provider checked a second factor (RFC 8176). */
const secondFactorMethods = ['mfa', 'otp', 'hwk', 'swk'];

/**
 * Why discovery failed, in a few words: the network's error code (ECONNREFUSED, ENOTFOUND, a
 * certificate's), the HTTP status of the discovery document, or the library's message (such as
 * an issuer that differs from OIDC_ISSUER).
 */
function discoveryFailure(error: unknown): string {
  for (let at: unknown = error; typeof at === 'object' && at !== null;) {
    const { code, status, cause } = at as { code?: unknown; status?: unknown; cause?: unknown };
    if (typeof status === 'number') return `the discovery document answered HTTP ${status}`;
    if (typeof code === 'string' && !code.startsWith('OAUTH_')) return code;
    at = cause;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? (message.split('\n')[0] ?? message) : 'no answer';
}

/**
 * The provider as its discovery document describes it, with its keys, which openid-client
 * fetches when first needed and again when a token names a key it does not hold.
 */
export async function discoverOidcProvider(settings: OidcSettings): Promise<client.Configuration> {
  const issuer = new URL(settings.issuer);
  try {
    return await client.discovery(
      issuer,
      settings.clientId,
      { client_secret: settings.clientSecret },
      client.ClientSecretBasic(settings.clientSecret),
      // http:// passed the settings' check only on a loopback address.
      issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
    );
  } catch (error) {
    const why = discoveryFailure(error);
    throw new StartupFault(
      'OIDC_ISSUER',
      `Cannot start: no OpenID Connect provider answers as ${settings.issuer} (OIDC_ISSUER): ${why}`,
    );
  }
}

/** Where the browser goes to sign in, after the sign-in's state, nonce and verifier are kept. */
export async function startOidcSignIn(
  context: AppContext,
  provider: client.Configuration,
  settings: OidcSettings,
): Promise<{ bindingId: string; redirectTo: string }> {
  const bindingId = newSessionId();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const now = context.now();
  await oidcSignInsRepository.insert(
    context.database.db,
    {
      binding_hash: hashSessionId(bindingId),
      state,
      nonce,
      code_verifier: codeVerifier,
      created_at: now.toISOString(),
    },
    new Date(now.getTime() - oidcSignInLifetimeMs).toISOString(),
  );
  const url = client.buildAuthorizationUrl(provider, {
    redirect_uri: settings.redirectUri,
    scope: settings.scopes,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { bindingId, redirectTo: url.href };
}

/** A provider's sign-in that ended at the gate without a session, with the reason shown there. */
export class OidcSignInRefused extends Error {
  readonly reason: OidcSignInError;
  constructor(reason: OidcSignInError) {
    super(reason);
    this.reason = reason;
  }
}

/** The value at a dotted claim path (`realm_access.roles`), as a list of strings. */
function claimValues(claims: Record<string, unknown>, path: string): string[] {
  let value: unknown = claims;
  for (const key of path.split('.')) {
    value =
      typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)[key]
        : undefined;
  }
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((part) => part !== '');
  if (Array.isArray(value)) return value.filter((part) => typeof part === 'string');
  return [];
}

/**
 * Roles from most rights to fewest, for claims that give several: a manager reads what a doctor
 * reads but changes nothing; a nurse reads less than either.
 */
const rolesByRights: readonly Role[] = ['admin', 'doctor', 'manager', 'nurse'];

/**
 * The role the claims give: of several, the one with most rights (admin, then doctor, manager
 * and nurse), since each was granted by the organisation; undefined for none.
 */
export function roleFromClaims(
  claims: Record<string, unknown>,
  settings: Pick<OidcSettings, 'roleClaim' | 'roleMap'>,
): Role | undefined {
  const values = new Set(claimValues(claims, settings.roleClaim));
  const given = new Set(
    settings.roleMap
      .filter((mapping) => values.has(mapping.claimValue))
      .map((mapping) => mapping.role),
  );
  return rolesByRights.find((role) => given.has(role));
}

/**
 * The units the claims name (OIDC_UNIT_CLAIM holds unit codes, compared without case), as ids;
 * codes no unit has are left out. Undefined when the setting is not used.
 */
async function unitIdsFromClaims(
  db: Executor,
  claims: Record<string, unknown>,
  settings: Pick<OidcSettings, 'unitClaim'>,
): Promise<string[] | undefined> {
  if (settings.unitClaim === undefined) return undefined;
  const ids = new Set<string>();
  for (const code of claimValues(claims, settings.unitClaim)) {
    const unit = await orgUnitsRepository.findByCode(db, code);
    if (unit !== undefined) ids.add(unit.id);
  }
  return [...ids].sort();
}

/**
 * The units of an account the provider's first sign-in makes: those the claims name, else the
 * one unit while the tree has only one; none when neither says (the sign-in is then refused, as
 * every account works in at least one unit).
 */
async function unitsOfNewAccount(
  db: Executor,
  fromClaims: readonly string[] | undefined,
): Promise<readonly string[]> {
  if (fromClaims !== undefined) return fromClaims;
  const units = await orgUnitsRepository.list(db);
  const only = units.length === 1 ? units[0] : undefined;
  return only === undefined ? [] : [only.id];
}

/** Whether the provider says it checked a second factor (`amr`, or `acr` in OIDC_MFA_ACR). */
export function providerDidSecondFactor(
  claims: Record<string, unknown>,
  settings: Pick<OidcSettings, 'mfaAcr'>,
): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr : [];
  if (amr.some((method) => secondFactorMethods.includes(String(method)))) return true;
  return typeof claims.acr === 'string' && settings.mfaAcr.includes(claims.acr);
}

/** A free user name for a new account, from preferred_username or email (never its link). */
async function freeUsername(db: Executor, claims: Record<string, unknown>): Promise<string> {
  const wanted =
    typeof claims.preferred_username === 'string'
      ? claims.preferred_username
      : typeof claims.email === 'string'
        ? claims.email
        : 'staff';
  const base =
    wanted
      .toLowerCase()
      .replaceAll(/[^a-z0-9._-]+/g, '.')
      .replaceAll(/^[.]+|[.]+$/g, '')
      .slice(0, 56) || 'staff';
  for (let suffix = 1; ; suffix++) {
    const candidate = suffix === 1 ? base : `${base}-${suffix}`;
    if (
      usernameSchema.safeParse(candidate).success &&
      (await usersRepository.findByUsername(db, candidate)) === undefined
    ) {
      return candidate;
    }
  }
}

function displayNameOf(claims: Record<string, unknown>, fallback: string): string {
  for (const claim of [claims.name, claims.preferred_username, claims.email]) {
    if (typeof claim === 'string' && claim.trim() !== '') return claim.trim().slice(0, 120);
  }
  return fallback;
}

/**
 * The browser's return from the provider: the sign-in it began is taken (once), the provider's
 * answer checked by openid-client (state, PKCE, the ID token's signature, issuer, audience and
 * nonce), then the account found by `sub`, made or given the role the claims map to.
 */
export async function finishOidcSignIn(
  context: AppContext,
  provider: client.Configuration,
  settings: OidcSettings,
  attempt: { bindingId: string | undefined; query: string; address: string },
): Promise<LoginResult> {
  const db = context.database.db;
  const now = context.now();
  const refuse = async (
    reason: OidcSignInError,
    why: string,
    actor: { id: string | null; username: string } = { id: null, username: '' },
  ): Promise<never> => {
    // The reason and at most the subject: no token, and no other claim.
    await recordAudit(db, {
      at: now,
      actor,
      action: 'login_failed',
      outcome: 'failure',
      address: attempt.address,
      detail: `method=oidc issuer=${settings.issuer} ${why}`,
    });
    throw new OidcSignInRefused(reason);
  };

  const kept =
    attempt.bindingId === undefined
      ? undefined
      : await oidcSignInsRepository.take(db, hashSessionId(attempt.bindingId));
  if (kept === undefined || now.getTime() - Date.parse(kept.created_at) >= oidcSignInLifetimeMs) {
    return refuse('expired', 'refused: no sign-in of this browser awaits an answer');
  }

  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(
      provider,
      new URL(`${settings.redirectUri}${attempt.query}`),
      {
        pkceCodeVerifier: kept.code_verifier,
        expectedState: kept.state,
        expectedNonce: kept.nonce,
        idTokenExpected: true,
      },
    );
  } catch (error) {
    if (error instanceof client.AuthorizationResponseError) {
      return refuse(
        error.error === 'access_denied' ? 'denied' : 'failed',
        `refused by the provider: ${error.error}`,
      );
    }
    const code = (error as { code?: string }).code ?? 'error';
    return refuse('failed', `refused: the provider's answer failed its checks (${code})`);
  }
  const idToken = tokens.id_token;
  const claims = tokens.claims();
  if (idToken === undefined || claims === undefined) {
    return refuse('failed', 'refused: the provider sent no ID token');
  }
  const subject = claims.sub;
  const role = roleFromClaims(claims, settings);
  const existing = await usersRepository.findByOidcSubject(db, subject);
  const actor =
    existing === undefined ? undefined : { id: existing.id, username: existing.username };
  if (existing?.disabled === true) {
    return refuse('disabled', `sub=${subject} refused: the account is disabled`, actor);
  }
  if (role === undefined) {
    return refuse('noRole', `sub=${subject} refused: no role in OIDC_ROLE_MAP`, actor);
  }
  // With OIDC_UNIT_CLAIM the claims decide the units at every sign-in; without it an account
  // keeps the units an administrator gave it.
  const claimedUnits = await unitIdsFromClaims(db, claims, settings);
  const newUnits =
    existing === undefined ? await unitsOfNewAccount(db, claimedUnits) : claimedUnits;
  if (newUnits?.length === 0) {
    const why =
      claimedUnits === undefined
        ? 'several units exist and OIDC_UNIT_CLAIM is not set'
        : 'OIDC_UNIT_CLAIM names no unit of this system';
    return refuse('noUnit', `sub=${subject} refused: no unit (${why})`, actor);
  }

  const user = await context.database.transaction(async (trx): Promise<UserRow> => {
    const current = await usersRepository.findByOidcSubject(trx, subject);
    if (current === undefined) {
      const id = timeOrderedId(now.getTime());
      const username = await freeUsername(trx, claims);
      await usersRepository.insert(trx, {
        id,
        username,
        display_name: displayNameOf(claims, username),
        role,
        // A random password nobody knows: the account signs in through the provider.
        password_hash: await hashPassword(
          crypto.randomBytes(32).toString('base64url'),
          context.passwordCost,
        ),
        disabled: false,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        oidc_subject: subject,
      });
      await orgUnitsRepository.setUserUnits(trx, id, newUnits ?? []);
      await recordAudit(trx, {
        at: now,
        actor: null,
        action: 'user_create',
        target: { type: 'user', id },
        address: attempt.address,
        detail: `method=oidc issuer=${settings.issuer} sub=${subject}`,
      });
    } else if (current.role !== role) {
      // The organisation changed the role: it takes effect now, and the old role's sessions end.
      await usersRepository.update(trx, current.id, {
        role,
        second_factor_required_since: null,
        updated_at: now.toISOString(),
      });
      await sessionsRepository.endAllForUser(trx, current.id, now.toISOString());
      await recordAudit(trx, {
        at: now,
        actor: null,
        action: 'user_update',
        target: { type: 'user', id: current.id },
        address: attempt.address,
        detail: `method=oidc issuer=${settings.issuer} role ${current.role} -> ${role}`,
      });
    }
    if (current !== undefined && newUnits !== undefined) {
      const held = (await orgUnitsRepository.unitsOfUsers(trx, [current.id]))
        .map((unit) => unit.id)
        .sort();
      if (held.join() !== newUnits.join()) {
        // The organisation moved the user: the new units apply from this sign-in.
        await orgUnitsRepository.setUserUnits(trx, current.id, newUnits);
        await recordAudit(trx, {
          at: now,
          actor: null,
          action: 'user_update',
          target: { type: 'user', id: current.id },
          address: attempt.address,
          detail: `method=oidc issuer=${settings.issuer} units from ${settings.unitClaim ?? ''}`,
        });
      }
    }
    const row = await usersRepository.findByOidcSubject(trx, subject);
    if (row === undefined) throw new Error('The signed-in account could not be read back');
    return row;
  });
  return nextStepAfterFirstFactor(
    context,
    user,
    attempt.address,
    { method: 'oidc', issuer: settings.issuer, idToken },
    providerDidSecondFactor(claims, settings),
  );
}

/**
 * Ends the session; when it began at a provider that publishes `end_session_endpoint`, where the
 * browser goes to sign out there too, and from there back to the gate.
 */
export async function endSessionWithProvider(
  context: AppContext,
  sessionId: string,
): Promise<string | null> {
  const provider = context.oidcProvider;
  const settings = context.config.oidc;
  // Read only where a provider is set up, so that sign-out works on a schema from before it.
  const idToken =
    settings === undefined
      ? null
      : await sessionsRepository.idToken(context.database.db, hashSessionId(sessionId));
  await endSession(context, sessionId);
  if (
    idToken === null ||
    provider === undefined ||
    settings === undefined ||
    provider.serverMetadata().end_session_endpoint === undefined
  ) {
    return null;
  }
  return client.buildEndSessionUrl(provider, {
    id_token_hint: idToken,
    post_logout_redirect_uri: settings.postLogoutRedirectUri,
  }).href;
}
