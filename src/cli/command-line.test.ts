import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommandLine } from './command-line.ts';
import { runTriage, sparePort } from './testing/run-triage.ts';

let scratch: string;
let dataDir: string;
const settingsBefore = { ...process.env };
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-help-'));
  // Any command that ran instead of answering would make this folder (a database, a lock).
  dataDir = path.join(scratch, 'data');
  process.env.DATA_DIR = dataDir;
  process.env.PORT = '0';
});
afterAll(() => {
  process.env = settingsBefore;
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** `triage ARGS` in this process, its output collected. */
async function triage(...args: string[]) {
  const stdout = new PassThrough().setEncoding('utf8');
  const stderr = new PassThrough().setEncoding('utf8');
  let out = '';
  let err = '';
  stdout.on('data', (chunk: string) => (out += chunk));
  stderr.on('data', (chunk: string) => (err += chunk));
  const exitCode = await runCommandLine(args, { stdin: process.stdin, stdout, stderr });
  return { exitCode, stdout: out, stderr: err };
}

/** Every command, and each subcommand, as an operator would type it. */
const commands = [
  ['serve'],
  ['migrate'],
  ['score'],
  ['seed'],
  ['rescore'],
  ['user'],
  ...['add', 'list', 'disable', 'enable', 'set-password', 'set-role', 'reset-mfa'].map((sub) => [
    'user',
    sub,
  ]),
  ['org-unit'],
  ...['add', 'list', 'import'].map((sub) => ['org-unit', sub]),
  ['backup'],
  ['restore'],
  ['api-token'],
  ...['create', 'list', 'revoke'].map((sub) => ['api-token', sub]),
  ['cds-client'],
  ['cds-client', 'add'],
  ['fhir-client'],
  ...['add', 'list', 'remove'].map((sub) => ['fhir-client', sub]),
];

describe.each(commands.map((command) => [command.join(' '), command]))(
  'triage %s',
  (_, command) => {
    it('answers --help and -h with its usage and exit 0, doing nothing else', async () => {
      const help = await triage(...command, '--help');
      expect(help.stderr).toBe('');
      expect(help.exitCode).toBe(0);
      expect(help.stdout).toMatch(/^Usage:/);
      expect(help.stdout).toContain(`triage ${command[0]}`);
      expect(await triage(...command, '-h')).toEqual(help);
      expect(fs.existsSync(dataDir)).toBe(false);
    });

    it('refuses an unknown option in one line naming it, then its usage, exit 2', async () => {
      const help = await triage(...command, '--help');
      const refused = await triage(...command, '--no-such-option');
      expect(refused).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `Unknown option '--no-such-option'\n${help.stdout}`,
      });
      expect(fs.existsSync(dataDir)).toBe(false);
    });
  },
);

describe('triage COMMAND --help in a process of its own', () => {
  // Each of these did something else: seed ended in a stack trace, migrate migrated, serve
  // started the server and score waited for its input.
  it.each([['seed'], ['migrate'], ['serve'], ['score']])(
    'triage %s --help prints its usage and exits 0',
    { timeout: 60_000 },
    async (command) => {
      const env = { DATA_DIR: path.join(scratch, `${command}-data`), PORT: '0' };
      const result = await runTriage([command, '--help'], env, { deadlineMillis: 30_000 });
      expect(result).toEqual({
        exitCode: 0,
        stdout: (await triage(command, '--help')).stdout,
        stderr: '',
      });
      expect(fs.existsSync(env.DATA_DIR)).toBe(false);
    },
  );
});

describe('triage COMMAND with a database that cannot be reached', () => {
  // These printed a stack trace (and a migration failure with no name in it).
  it.each([
    [['migrate']],
    [['user', 'add', '--username', 'nurse-one', '--role', 'nurse']],
    [['seed', '--assessments', '5']],
  ])('triage %s says so in one line, exit 78', { timeout: 60_000 }, async (args) => {
    const port = await sparePort();
    const result = await runTriage(args, {
      DATABASE_URL: `postgres://triage@127.0.0.1:${port}/triage`,
    });
    expect(result).toEqual({
      exitCode: 78,
      stdout: '',
      stderr: `Cannot start: the database at 127.0.0.1:${port} cannot be reached (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:${port}\n`,
    });
  });
});
