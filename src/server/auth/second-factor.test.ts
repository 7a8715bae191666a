import { Secret, TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecondFactorEnrolment } from '../../shared/api/second-factor.ts';
import { secondFactorTexts } from '../../shared/api/second-factor.ts';
import { tooManyAttemptsMessage } from '../../shared/api/session.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs, testPassword } from '../testing/users.ts';

type Who = { cookie: string; userId: string; username: string };

const cookieOf = (response: { cookies: Array<{ name: string; value: string }> }, name: string) =>
  response.cookies.find((cookie) => cookie.name === name)?.value;

function suite(t: () => TestApp) {
  const codeFor = (secret: string) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: t().context.now().getTime() });

  const enrol = async (who: Who): Promise<{ secret: string; recoveryCodes: string[] }> => {
    const started = await t().app.inject({
      method: 'POST',
      url: '/api/account/second-factor/enrolment',
      headers: { cookie: who.cookie },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { secret } = started.json<SecondFactorEnrolment>();
    const confirmed = await t().app.inject({
      method: 'POST',
      url: '/api/account/second-factor/confirmation',
      headers: { cookie: who.cookie },
      payload: { code: codeFor(secret) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
  };

  /** The password step; answers the challenge cookie (undefined when a session was started). */
  const password = async (who: Who, remoteAddress = '127.0.0.1') => {
    const response = await t().app.inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress,
      payload: { username: who.username, password: testPassword },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { response, challenge: cookieOf(response, 'triage_second_factor') };
  };
  const secondStep = (challenge: string | undefined, code: string, remoteAddress = '127.0.0.1') =>
    t().app.inject({
      method: 'POST',
      url: '/api/session/second-factor',
      remoteAddress,
      headers: challenge === undefined ? {} : { cookie: `triage_second_factor=${challenge}` },
      payload: { code },
    });
  const sessionOf = async (session: string | undefined) =>
    (
      await t().app.inject({
        method: 'GET',
        url: '/api/session',
        headers: { cookie: `triage_session=${session ?? ''}` },
      })
    ).statusCode;
  const auditOf = async (userId: string) =>
    (
      await t()
        .database.db.selectFrom('audit_events')
        .select(['action', 'outcome'])
        .where('target_id', '=', userId)
        .where('action', 'not in', ['user_create'])
        .orderBy('id')
        .execute()
    ).map((row) => `${row.action} ${row.outcome}`);

  it('enrols: a secret with its otpauth URI and QR code, confirmed by a code, then ten recovery codes kept as hashes', async () => {
    const who = await signedInAs(t(), 'nurse');
    const status = async () =>
      (
        await t().app.inject({
          method: 'GET',
          url: '/api/account/second-factor',
          headers: { cookie: who.cookie },
        })
      ).json<unknown>();
    expect(await status()).toEqual({ enrolled: false, recoveryCodesLeft: 0 });

    const started = await t().app.inject({
      method: 'POST',
      url: '/api/account/second-factor/enrolment',
      headers: { cookie: who.cookie },
    });
    expect(started.statusCode, started.body).toBe(200);
    const enrolment = started.json<SecondFactorEnrolment>();
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = URI.parse(enrolment.otpauthUri);
    expect(uri).toBeInstanceOf(TOTP);
    expect((uri as TOTP).secret.base32).toBe(enrolment.secret);
    expect((uri as TOTP).issuer).toBe('Triage');
    expect((uri as TOTP).label).toBe(who.username);
    expect(enrolment.qrCode).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]{200,}$/);

    const wrong = await t().app.inject({
      method: 'POST',
      url: '/api/account/second-factor/confirmation',
      headers: { cookie: who.cookie },
      payload: {
        code: String((Number(codeFor(enrolment.secret)) + 1) % 1_000_000).padStart(6, '0'),
      },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: { code: 'validation_failed', field: 'code', message: secondFactorTexts.wrongCode },
    });
    expect(await status()).toEqual({ enrolled: false, recoveryCodesLeft: 0 });

    const confirmed = await t().app.inject({
      method: 'POST',
      url: '/api/account/second-factor/confirmation',
      headers: { cookie: who.cookie },
      payload: { code: codeFor(enrolment.secret) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect(await status()).toEqual({ enrolled: true, recoveryCodesLeft: 10 });

    const stored = await t()
      .database.db.selectFrom('second_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', who.userId)
      .execute();
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) {
      expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(recoveryCodes.some((code) => code_hash.includes(code.replaceAll('-', '')))).toBe(
        false,
      );
    }

    const again = await t().app.inject({
      method: 'POST',
      url: '/api/account/second-factor/enrolment',
      headers: { cookie: who.cookie },
    });
    expect(again.statusCode).toBe(409);
    expect(await auditOf(who.userId)).toEqual([
      'login success',
      'second_factor_enrol success',
      'second_factor_confirm success',
    ]);
  });

  it('asks for a code after the password and grants nothing until it is given', async () => {
    const who = await signedInAs(t(), 'admin');
    const { secret } = await enrol(who);
    t().advance(30_000);

    const { response, challenge } = await password(who);
    expect(response.json()).toEqual({ secondFactorRequired: true });
    expect(cookieOf(response, 'triage_session')).toBeUndefined();
    expect(challenge).toBeDefined();
    // The challenge's cookie is no session, whatever it is sent as.
    expect(await sessionOf(challenge)).toBe(401);
    const users = await t().app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { cookie: `triage_second_factor=${challenge ?? ''}` },
    });
    expect(users.statusCode).toBe(401);

    const answered = await secondStep(challenge, codeFor(secret));
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toEqual({
      user: { id: who.userId, username: who.username, displayName: who.username, role: 'admin' },
      secondFactorRequiredBy: null,
      timeZone: 'UTC',
    });
    expect(await sessionOf(cookieOf(answered, 'triage_session'))).toBe(200);

    // The challenge is answered once, and the same code is not accepted again.
    expect((await secondStep(challenge, codeFor(secret))).statusCode).toBe(401);
    const next = await password(who);
    const replayed = await secondStep(next.challenge, codeFor(secret));
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ error: { message: secondFactorTexts.wrongCode } });
    t().advance(30_000);
    expect((await secondStep(next.challenge, codeFor(secret))).statusCode).toBe(200);

    expect((await auditOf(who.userId)).slice(3)).toEqual([
      'second_factor_challenge success',
      'login success',
      'second_factor_challenge success',
      'second_factor_failed failure',
      'login success',
    ]);
  });

  it('accepts each recovery code once, and refuses a wrong code', async () => {
    const who = await signedInAs(t(), 'doctor');
    const { recoveryCodes } = await enrol(who);
    const [first = '', second = ''] = recoveryCodes;

    const wrong = await secondStep((await password(who)).challenge, '123456');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({
      error: { code: 'unauthenticated', message: secondFactorTexts.wrongCode },
    });

    const used = await secondStep((await password(who)).challenge, first.toUpperCase());
    expect(used.statusCode, used.body).toBe(200);
    expect(await sessionOf(cookieOf(used, 'triage_session'))).toBe(200);
    const reused = await secondStep((await password(who)).challenge, first);
    expect(reused.statusCode).toBe(401);
    // Typed without dashes, another code still works.
    const other = await secondStep((await password(who)).challenge, second.replaceAll('-', ''));
    expect(other.statusCode).toBe(200);

    const left = await t().app.inject({
      method: 'GET',
      url: '/api/account/second-factor',
      headers: { cookie: who.cookie },
    });
    expect(left.json()).toEqual({ enrolled: true, recoveryCodesLeft: 8 });
    expect((await auditOf(who.userId)).slice(3)).toEqual([
      'second_factor_challenge success',
      'second_factor_failed failure',
      'second_factor_challenge success',
      'second_factor_recovery_code_used success',
      'login success',
      'second_factor_challenge success',
      'second_factor_failed failure',
      'second_factor_challenge success',
      'second_factor_recovery_code_used success',
      'login success',
    ]);
  });

  it('refuses a second step without a challenge, or after five minutes', async () => {
    const who = await signedInAs(t(), 'nurse');
    const { secret } = await enrol(who);
    expect((await secondStep(undefined, codeFor(secret))).statusCode).toBe(401);
    expect((await secondStep('made-up', codeFor(secret))).statusCode).toBe(401);
    const { challenge } = await password(who);
    t().advance(5 * 60_000);
    const late = await secondStep(challenge, codeFor(secret));
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ error: { message: secondFactorTexts.expired } });
  });

  it('throttles the second step as passwords are: 5 attempts, then refused even with the right code', async () => {
    const who = await signedInAs(t(), 'nurse');
    const { secret, recoveryCodes } = await enrol(who);
    t().advance(30_000);
    const { challenge } = await password(who);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await secondStep(challenge, '000000')).statusCode).toBe(401);
    }
    const refused = await secondStep(challenge, codeFor(secret));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      error: { code: 'too_many_attempts', message: tooManyAttemptsMessage },
    });
    // A new challenge does not start the count again; nor does a recovery code pass.
    expect(
      (await secondStep((await password(who)).challenge, recoveryCodes[0] ?? '')).statusCode,
    ).toBe(429);
    // The window ends 15 minutes after the first attempt; the code of the time then works.
    t().advance(15 * 60_000);
    const after = await password(who);
    expect((await secondStep(after.challenge, codeFor(secret))).statusCode).toBe(200);
  });

  it('refuses per user and address: a stranger with the password cannot lock the real user out from elsewhere', async () => {
    const who = await signedInAs(t(), 'nurse');
    const { secret } = await enrol(who);
    t().advance(30_000);
    const stranger = '203.0.113.9';
    const { challenge } = await password(who, stranger);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await secondStep(challenge, '000000', stranger)).statusCode).toBe(401);
    }
    expect((await secondStep(challenge, codeFor(secret), stranger)).statusCode).toBe(429);
    // The real user, at the clinic's address, still signs in: the stranger's failures only
    // slow her second step.
    const clinic = await password(who, '198.51.100.20');
    const started = Date.now();
    const signedIn = await secondStep(clinic.challenge, codeFor(secret), '198.51.100.20');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(await sessionOf(cookieOf(signedIn, 'triage_session'))).toBe(200);
  });

  it('signs a user without a second factor in as before: a session at once', async () => {
    const who = await signedInAs(t(), 'nurse');
    const { response, challenge } = await password(who);
    expect(challenge).toBeUndefined();
    expect(response.json()).toMatchObject({ user: { username: who.username } });
    expect(await sessionOf(cookieOf(response, 'triage_session'))).toBe(200);
  });
}

describe.each(testDatabases())('the second factor (TOTP) on $engine', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(testDatabase);
  });
  afterAll(async () => {
    await t.close();
  });
  suite(() => t);
});
