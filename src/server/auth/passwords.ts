import crypto from 'node:crypto';
import fs from 'node:fs';
import { dictionary } from '@zxcvbn-ts/language-common';
import { passwordMaxLength, passwordMinLength } from '../../shared/api/users.ts';

/** scrypt cost; OWASP's current recommendation is N=2^17, r=8, p=1. */
export interface ScryptCost {
  logN: number;
  r: number;
  p: number;
}

export const owaspScryptCost: ScryptCost = { logN: 17, r: 8, p: 1 };

const keyLength = 32;

/**
 * scrypt at OWASP's cost holds about 130 MB while it runs, so a shift signing in at once could
 * exhaust a small server: at most this many hashes run at once in the process
 * (PASSWORD_HASH_CONCURRENCY), the rest wait their turn in order.
 */
const hashing = { limit: 2, running: 0, waiting: [] as Array<() => void> };

export function limitPasswordHashing(concurrency: number): void {
  hashing.limit = concurrency;
}

/** Hashes running and waiting now (for the metrics and tests). */
export function passwordHashing(): { running: number; waiting: number } {
  return { running: hashing.running, waiting: hashing.waiting.length };
}

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (hashing.running < hashing.limit) hashing.running++;
  // A finished hash hands its place to the first in line, so the count stays as it was.
  else await new Promise<void>((resolve) => hashing.waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = hashing.waiting.shift();
    if (next === undefined) hashing.running--;
    else next();
  }
}

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return inTurn(() => scryptNow(password, salt, cost));
}

function scryptNow(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const N = 2 ** cost.logN;
  return new Promise((resolve, reject) => {
    crypto.scrypt(
      password.normalize('NFKC'),
      salt,
      keyLength,
      { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** Stored as `scrypt$logN$r$p$salt$key` (base64url), so the cost can rise without a migration. */
export async function hashPassword(
  password: string,
  cost: ScryptCost = owaspScryptCost,
): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return [
    'scrypt',
    cost.logN,
    cost.r,
    cost.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), {
    logN: Number(logN),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/** A hash of a random password, verified against when the user name is unknown, so that the
 * time a failed login takes does not tell whether the account exists. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(cost: ScryptCost): Promise<string> {
  decoyHash ??= hashPassword(crypto.randomBytes(24).toString('base64url'), cost);
  return decoyHash;
}

/**
 * The most common passwords from breaches (zxcvbn-ts's list, about 49,000 of them, as OWASP ASVS
 * 2.1.7 asks) and our own list of common ones of 12 characters or more.
 */
let commonPasswords: Set<string> | undefined;
export function loadCommonPasswords(): Set<string> {
  commonPasswords ??= new Set(
    [
      ...dictionary['passwords-common'],
      ...fs
        .readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
        .split('\n')
        .filter((line) => !line.startsWith('#')),
    ]
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line !== ''),
  );
  return commonPasswords;
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string, username?: string): string | undefined {
  if (password.length < passwordMinLength) {
    return `Passwords are at least ${passwordMinLength} characters`;
  }
  if (password.length > passwordMaxLength) {
    return `Passwords are at most ${passwordMaxLength} characters`;
  }
  if (password.trim() === '') return 'A password cannot be only spaces';
  const lowered = password.toLowerCase();
  if (loadCommonPasswords().has(lowered)) return 'This password is too common; choose another';
  if (username !== undefined && lowered.includes(username.toLowerCase())) {
    return 'The password must not contain the user name';
  }
  return undefined;
}
