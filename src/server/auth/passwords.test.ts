import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  limitPasswordHashing,
  loadCommonPasswords,
  owaspScryptCost,
  passwordHashing,
  passwordProblem,
  verifyPassword,
} from './passwords.ts';

const projectRoot = path.resolve(import.meta.dirname, '../../..');

describe('passwords', () => {
  it('are hashed with a salt at the OWASP scrypt cost by default and verified', async () => {
    const stored = await hashPassword('a correct horse, stapled');
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$/);
    expect(owaspScryptCost).toEqual({ logN: 17, r: 8, p: 1 });
    expect(await verifyPassword('a correct horse, stapled', stored)).toBe(true);
    expect(await verifyPassword('a correct horse, stapleD', stored)).toBe(false);
    expect(await hashPassword('a correct horse, stapled')).not.toBe(stored);
  });

  it('are hashed at most PASSWORD_HASH_CONCURRENCY at once, the rest waiting in turn', async () => {
    limitPasswordHashing(2);
    const cheap = { logN: 12, r: 8, p: 1 };
    const stored = Array.from({ length: 6 }, (_, index) =>
      hashPassword(`phrase number ${index}`, cheap),
    );
    expect(passwordHashing()).toEqual({ running: 2, waiting: 4 });
    const hashes = await Promise.all(stored);
    expect(passwordHashing()).toEqual({ running: 0, waiting: 0 });
    // Each waited its turn and is whole; a hash of an older, cheaper cost still verifies.
    for (const [index, hash] of hashes.entries()) {
      expect(await verifyPassword(`phrase number ${index}`, hash)).toBe(true);
    }
  });

  it('keep eight sign-ins at once under 300 MB more memory at the OWASP cost', () => {
    // In a process of its own, so that the peak is this work's alone.
    const script = `
      import { limitPasswordHashing, hashPassword, verifyPassword } from './src/server/auth/passwords.ts';
      limitPasswordHashing(2);
      const stored = await hashPassword('a shift signing in at eight');
      const before = process.resourceUsage().maxRSS;
      const checks = await Promise.all(
        Array.from({ length: 8 }, () => verifyPassword('a shift signing in at eight', stored)),
      );
      const after = process.resourceUsage().maxRSS;
      process.stdout.write(JSON.stringify({ checks, growthKb: after - before }));
    `;
    const output = execFileSync(
      path.join(projectRoot, 'node_modules/.bin/node'),
      ['--input-type=module', '-e', script],
      { cwd: projectRoot, encoding: 'utf8' },
    );
    const { checks, growthKb } = JSON.parse(output) as { checks: boolean[]; growthKb: number };
    expect(checks).toEqual(Array(8).fill(true));
    expect(growthKb / 1024).toBeLessThan(300);
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
