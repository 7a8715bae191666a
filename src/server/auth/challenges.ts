import crypto from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { secondFactorsRepository } from '../db/repositories/second-factors.ts';
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

/** Begins the second step of a sign-in; returns the id for the challenge cookie. */
export async function startChallenge(context: AppContext, userId: string): Promise<string> {
  const challengeId = newSessionId();
  const now = context.now();
  await context.database.transaction(async (trx) => {
    await secondFactorsRepository.removeChallengesBefore(
      trx,
      new Date(now.getTime() - challengeLifetimeMs).toISOString(),
    );
    await secondFactorsRepository.insertChallenge(
      trx,
      challengeHash(challengeId),
      userId,
      now.toISOString(),
    );
  });
  return challengeId;
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
