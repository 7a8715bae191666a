import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecondFactorEnrolment } from '../../shared/api/second-factor.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { openTestApp, type TestApp } from '../../server/testing/app.ts';
import type { TestDatabase } from '../../server/testing/databases.ts';
import { signedInAs, testPassword } from '../../server/testing/users.ts';
import { runUserCommand } from './user.ts';

describe('triage user reset-mfa NAME', () => {
  let folder: string;
  let t: TestApp;
  const environment = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-reset-mfa-'));
    const onDisk: TestDatabase = {
      engine: 'sqlite',
      async open() {
        const handle = openDatabase({ dataDir: folder });
        await migrateToLatest(handle);
        return handle;
      },
    };
    t = await openTestApp(onDisk);
    process.env.DATA_DIR = folder;
    delete process.env.DATABASE_URL;
  });
  afterAll(async () => {
    await t.close();
    process.env.DATA_DIR = environment.DATA_DIR;
    if (environment.DATABASE_URL !== undefined) process.env.DATABASE_URL = environment.DATABASE_URL;
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const run = async (args: string[]) => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await runUserCommand(args, {
      stdin: process.stdin,
      stdout,
      stderr,
    });
    return { code, out };
  };

  it('removes the factor and its recovery codes: the user signs in with the password alone', async () => {
    const who = await signedInAs(t, 'admin', 'admin-lost-phone');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/account/second-factor/enrolment',
      headers: { cookie: who.cookie },
    });
    const { secret } = started.json<SecondFactorEnrolment>();
    const code = TOTP.generate({
      secret: Secret.fromBase32(secret),
      timestamp: t.context.now().getTime(),
    });
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/account/second-factor/confirmation',
      headers: { cookie: who.cookie },
      payload: { code },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const signIn = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { username: who.username, password: testPassword },
      });
    expect((await signIn()).json()).toEqual({ secondFactorRequired: true });

    const reset = await run(['reset-mfa', 'Admin-Lost-Phone']);
    expect(reset.code).toBe(0);
    expect(reset.out).toMatch(/^Removed admin-lost-phone's second factor/i);
    expect((await signIn()).json()).toMatchObject({ user: { username: who.username } });
    for (const table of [
      'user_second_factors',
      'second_factor_recovery_codes',
      'second_factor_challenges',
    ] as const) {
      const rows = await t.database.db
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', who.userId)
        .execute();
      expect(rows, table).toEqual([]);
    }
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['username', 'address'])
      .where('action', '=', 'second_factor_reset')
      .where('target_id', '=', who.userId)
      .execute();
    expect(audit).toEqual([{ username: null, address: 'command line' }]);

    expect((await run(['reset-mfa', 'admin-lost-phone'])).out).toBe(
      'admin-lost-phone has no second factor.\n',
    );
    expect((await run(['reset-mfa', 'nobody'])).code).toBe(1);
  });
});
