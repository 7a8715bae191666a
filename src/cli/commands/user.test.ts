import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sqliteFileIn } from '../../server/db/database.ts';
import { runUserCommand } from './user.ts';

let dataDir: string;
const savedDataDir = process.env.DATA_DIR;
const savedDatabaseUrl = process.env.DATABASE_URL;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-user-command-'));
  // The command reads its settings from the environment, as at a shell.
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
});
afterAll(() => {
  if (savedDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = savedDataDir;
  if (savedDatabaseUrl !== undefined) process.env.DATABASE_URL = savedDatabaseUrl;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Standard input as a terminal (keys arrive raw) or as a pipe, with the lines given. */
function input(lines: string[], terminal: boolean): NodeJS.ReadStream {
  const stream = new PassThrough() as unknown as NodeJS.ReadStream & PassThrough;
  if (terminal) {
    stream.isTTY = true;
    stream.setRawMode = () => stream;
    // Each answer is typed once the question has been asked.
    let next = 0;
    stream.on('resume', () => {
      const line = lines[next++];
      if (line !== undefined) setImmediate(() => stream.write(`${line}\r`));
    });
  } else {
    stream.end(lines.map((line) => `${line}\n`).join(''));
  }
  return stream;
}

async function user(args: string[], lines: string[] = [], terminal = false) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exitCode = await runUserCommand(args, { stdin: input(lines, terminal), stdout, stderr });
  return { exitCode, out, err };
}

const password = 'lantern orchard basalt 42';

describe('triage user', () => {
  it('asks for a new password twice at a terminal and refuses two that differ', async () => {
    const differ = await user(
      ['add', '--username', 'first-admin', '--role', 'admin'],
      [password, `${password}!`],
      true,
    );
    expect(differ).toMatchObject({ exitCode: 1 });
    expect(differ.err).toContain('Password: ');
    expect(differ.err).toContain('Repeat it: ');
    expect(differ.err).toContain('The two passwords differ; nothing was changed.');
    expect((await user(['list'])).out).toBe('');

    const same = await user(
      ['add', '--username', 'first-admin', '--role', 'admin'],
      [password, password],
      true,
    );
    expect(same).toMatchObject({
      exitCode: 0,
      out: 'Created admin first-admin (first-admin) in MAIN.\n',
    });
  });

  it('reads the password once from a pipe', async () => {
    const piped = await user(['add', '--username', 'a-nurse', '--role', 'nurse'], [password]);
    expect(piped).toMatchObject({ exitCode: 0, out: 'Created nurse a-nurse (a-nurse) in MAIN.\n' });
    expect(piped.err).not.toContain('Repeat it');
  });

  it('refuses to disable or demote the last active administrator', async () => {
    const disable = await user(['disable', 'first-admin']);
    expect(disable).toMatchObject({
      exitCode: 1,
      err: 'first-admin is the last active administrator: make another account an administrator first.\n',
    });
    expect((await user(['set-role', 'first-admin', 'doctor'])).exitCode).toBe(1);
    expect((await user(['list'])).out).toContain('first-admin\tadmin\tactive');
  });

  it('disables and enables an account again', async () => {
    expect(await user(['disable', 'a-nurse'])).toMatchObject({
      exitCode: 0,
      out: 'Disabled a-nurse; their sessions have ended.\n',
    });
    expect((await user(['list'])).out).toContain('a-nurse\tnurse\tdisabled');
    expect(await user(['enable', 'a-nurse'])).toMatchObject({
      exitCode: 0,
      out: 'Enabled a-nurse; they can sign in again.\n',
    });
    expect((await user(['list'])).out).toContain('a-nurse\tnurse\tactive');
    expect(await user(['enable', 'nobody-here'])).toMatchObject({
      exitCode: 1,
      err: 'No user named nobody-here.\n',
    });
  });

  it('adds a break-glass account, and one for a provider subject without asking a password', async () => {
    const breakGlass = await user(
      ['add', '--username', 'glass-admin', '--role', 'admin', '--break-glass'],
      [password],
    );
    expect(breakGlass).toMatchObject({
      exitCode: 0,
      out: 'Created admin glass-admin (glass-admin) in MAIN, break-glass.\n',
    });
    // Nothing on standard input: no password is read for an account of the provider's.
    const forSubject = await user([
      'add',
      '--username',
      'dr-mensah',
      '--role',
      'doctor',
      '--oidc-subject',
      'a1b2-c3d4',
    ]);
    expect(forSubject).toMatchObject({
      exitCode: 0,
      out: "Created doctor dr-mensah (dr-mensah) in MAIN, for the provider's subject a1b2-c3d4.\n",
    });
    expect(forSubject.err).toBe('');
    const database = openDatabase({ sqliteFile: sqliteFileIn(dataDir) });
    try {
      const rows = await database.db
        .selectFrom('users')
        .select(['username', 'break_glass', 'oidc_subject'])
        .where('username', 'in', ['glass-admin', 'dr-mensah'])
        .orderBy('username')
        .execute();
      expect(rows.map((row) => ({ ...row, break_glass: Boolean(row.break_glass) }))).toEqual([
        { username: 'dr-mensah', break_glass: false, oidc_subject: 'a1b2-c3d4' },
        { username: 'glass-admin', break_glass: true, oidc_subject: null },
      ]);
    } finally {
      await database.close();
    }
    // A subject links one account.
    const again = await user([
      'add',
      '--username',
      'someone-else',
      '--role',
      'nurse',
      '--oidc-subject',
      'a1b2-c3d4',
    ]);
    expect(again).toMatchObject({
      exitCode: 1,
      err: 'Another account is linked to the subject a1b2-c3d4.\n',
    });
  });
});
