import crypto from 'node:crypto';
import { secondFactorTexts } from '../../shared/api/second-factor.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { secondFactorsRepository } from '../db/repositories/second-factors.ts';
import { usersRepository, type UserRow } from '../db/repositories/users.ts';
import type { SecondFactorChallengePurpose } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import type { SignInMethod } from './login.ts';
import { hashSessionId, newSessionId } from './sessions.ts';

/** The cookie of a sign-in awaiting its second step; it grants nothing but that step. */
export const challengeCookieName = 'triage_second_factor';
/** Where the challenge cookie is sent: the sign-in routes only. */
export const challengeCookiePath = '/api/session';
/** How long the second step may take after the password. */
export const challengeLifetimeMs = 5 * 60_000;

/** Whether sign-in asks the user for a second factor: one is confirmed. */
export async function hasSecondFactor(db: Executor, userId: string): Promise<boolean> {
  const factor = await secondFactorsRepository.find(db, userId);
  return factor !== undefined && factor.confirmed_at !== null;
}

export function challengeHash(challengeId: string): string {
  return hashSessionId(challengeId);
}

/**
 * Begins the step of a sign-in after the password: a code (`code`) or setting up a factor
 * (`enrolment`); returns the id for the challenge cookie.
 */
export async function startChallenge(
  context: AppContext,
  userId: string,
  purpose: SecondFactorChallengePurpose,
  /** The ID token of a provider's sign-in, which the session takes once the step is done. */
  idToken: string | null = null,
): Promise<string> {
  const challengeId = newSessionId();
  const now = context.now();
  await context.database.transaction(async (trx) => {
    await secondFactorsRepository.removeChallengesBefore(
      trx,
      new Date(now.getTime() - challengeLifetimeMs).toISOString(),
    );
    await secondFactorsRepository.insertChallenge(trx, {
      id_hash: challengeHash(challengeId),
      user_id: userId,
      created_at: now.toISOString(),
      purpose,
      ...(idToken === null ? {} : { id_token: idToken }),
    });
  });
  return challengeId;
}

/**
 * The user a live challenge of the purpose was made for; 401 (the sign-in has expired) when the
 * cookie names none, it is older than its lifetime, it is of another purpose, or the user has
 * been disabled since.
 */
export async function challengedUser(
  context: AppContext,
  challengeId: string | undefined,
  purpose: SecondFactorChallengePurpose,
): Promise<UserRow & { firstStep: SignInMethod }> {
  const db = context.database.db;
  const challenge =
    challengeId === undefined
      ? undefined
      : await secondFactorsRepository.findChallenge(db, challengeHash(challengeId));
  const user =
    challenge === undefined ||
    challenge.purpose !== purpose ||
    context.now().getTime() - Date.parse(challenge.created_at) >= challengeLifetimeMs
      ? undefined
      : await usersRepository.findById(db, challenge.user_id);
  if (user === undefined || user.disabled) {
    throw new AppError(401, 'unauthenticated', secondFactorTexts.expired);
  }
  const issuer = context.config.oidc?.issuer;
  // Read only where a provider is set up, so that the step works on a schema from before it.
  const idToken =
    issuer === undefined || challengeId === undefined
      ? null
      : await secondFactorsRepository.challengeIdToken(db, challengeHash(challengeId));
  const firstStep: SignInMethod =
    idToken === null || issuer === undefined
      ? { method: 'password' }
      : { method: 'oidc', issuer, idToken };
  return { ...user, firstStep };
}

/** A random recovery code: about 79 bits, as four groups of four letters and digits. */
export function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const characters = Array.from({ length: 16 }, () => alphabet[crypto.randomInt(alphabet.length)]);
  return [0, 4, 8, 12].map((at) => characters.slice(at, at + 4).join('')).join('-');
}

/**
 * The stored form of a recovery code: its SHA-256, typed in any case, with or without dashes and
 * spaces. A code of about 79 random bits needs no salt or slow hash to stay unguessable from its
 * hash.
 */
export function recoveryCodeHash(code: string): string {
  return crypto.hash('sha256', code.toLowerCase().replaceAll(/[\s-]/g, ''), 'hex');
}
