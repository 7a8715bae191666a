import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  loadCommonPasswords,
  owaspScryptCost,
  passwordProblem,
  verifyPassword,
} from './passwords.ts';

describe('passwords', () => {
  it('are hashed with a salt at the OWASP scrypt cost by default and verified', async () => {
    const stored = await hashPassword('a correct horse, stapled');
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$/);
    expect(owaspScryptCost).toEqual({ logN: 17, r: 8, p: 1 });
    expect(await verifyPassword('a correct horse, stapled', stored)).toBe(true);
    expect(await verifyPassword('a correct horse, stapleD', stored)).toBe(false);
    expect(await hashPassword('a correct horse, stapled')).not.toBe(stored);
  });

  it('refuse short, over-long, common and user-name-bearing passwords', () => {
    expect(passwordProblem('short-pass1')).toMatch(/at least 12/);
    expect(passwordProblem('x'.repeat(129))).toMatch(/at most 128/);
    expect(passwordProblem('Password1234')).toMatch(/too common/);
    expect(passwordProblem('nurse.jane-is-great', 'nurse.jane')).toMatch(/user name/);
    expect(passwordProblem('plausibly-strong-phrase')).toBeUndefined();
  });

  it('refuse passwords made only of white space, whatever the kind', () => {
    expect(passwordProblem(' '.repeat(12))).toMatch(/only spaces/);
    expect(passwordProblem('\t \u00a0\n'.repeat(4))).toMatch(/only spaces/);
    expect(passwordProblem('  two words here  ')).toBeUndefined();
  });

  it('check at least the 10,000 most common passwords, without regard to case', () => {
    const common = loadCommonPasswords();
    expect(common.size).toBeGreaterThanOrEqual(10_000);
    // Entries of the breach list (zxcvbn-ts) that meet the length rule are refused.
    expect(common.has('leavemealone')).toBe(true);
    expect(passwordProblem('LeaveMeAlone')).toMatch(/too common/);
    expect(passwordProblem('administrator')).toMatch(/too common/);
    expect(passwordProblem('1q2w3e4r5t6y')).toMatch(/too common/);
  });
});
