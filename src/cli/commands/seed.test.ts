import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runSeedCommand } from './seed.ts';

async function run(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let errors = '';
  stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exitCode = await runSeedCommand(args, { stdout, stderr });
  return { exitCode, errors };
}

describe('triage seed', () => {
  it.each([
    [['--assessments', '10', '--patients', '0']],
    [['--assessments', '10', '--patients', '11']],
    [['--assessments', '10', '--patients', 'many']],
    [['--assessments', '10', '--patients', '2.5']],
  ])('refuses %j before opening the database', async (args) => {
    const { exitCode, errors } = await run(args);
    expect(exitCode).toBe(2);
    expect(errors).toContain('--patients P');
  });

  it.each([
    [['--assessments', '10', '--units', '0']],
    [['--assessments', '10', '--units', '10000']],
    [['--assessments', '10', '--units', 'many']],
    [['--assessments', '10', '--units', '2.5']],
  ])('refuses %j before opening the database', async (args) => {
    const { exitCode, errors } = await run(args);
    expect(exitCode).toBe(2);
    expect(errors).toContain('--units U');
  });
});
