import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  secondFactorTexts,
  type SecondFactorEnrolment,
  type SignInEnrolmentConfirmed,
} from '../../shared/api/second-factor.ts';
import { tooManyAttemptsMessage } from '../../shared/api/session.ts';
import type { Role } from '../../shared/api/users.ts';
import { createApiToken } from '../services/api-tokens.ts';
import { resetSecondFactor } from '../services/second-factors.ts';
import { createUser, updateUser } from '../services/users.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases, type TestDatabase } from '../testing/databases.ts';
import { testPassword } from '../testing/users.ts';

const day = 86_400_000;
const operator = { user: null, address: 'command line' };

type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

const cookieOf = (response: Response, name: string) =>
  response.cookies.find((cookie) => cookie.name === name)?.value;

/** A test app whose settings require a second factor (the product's defaults unless given). */
async function withApp(
  testDatabase: TestDatabase,
  env: Record<string, string>,
  test: (t: TestApp, steps: ReturnType<typeof stepsOf>) => Promise<void>,
): Promise<void> {
  const t = await openTestApp(testDatabase, { MFA_REQUIRED_ROLES: 'admin', ...env });
  try {
    await test(t, stepsOf(t));
  } finally {
    await t.close();
  }
}

function stepsOf(t: TestApp) {
  const codeFor = (secret: string) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: t.context.now().getTime() });
  const steps = {
    codeFor,
    async user(role: Role) {
      const username = `${role}-${Math.random().toString(36).slice(2, 8)}`;
      const user = await createUser(t.context, operator, {
        username,
        role,
        password: testPassword,
      });
      return { id: user.id, username };
    },
    /** The password step; answers the challenge cookie when no session was started. */
    async password(username: string) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { username, password: testPassword },
      });
      expect(response.statusCode, response.body).toBe(200);
      return {
        response,
        body: response.json<Record<string, unknown>>(),
        session: cookieOf(response, 'triage_session'),
        challenge: cookieOf(response, 'triage_second_factor'),
      };
    },
    withChallenge: (challenge: string | undefined) =>
      challenge === undefined ? {} : { cookie: `triage_second_factor=${challenge}` },
    enrolment: (challenge: string | undefined) =>
      t.app.inject({
        method: 'POST',
        url: '/api/session/second-factor/enrolment',
        headers: steps.withChallenge(challenge),
      }),
    confirmation: (challenge: string | undefined, code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/session/second-factor/confirmation',
        headers: steps.withChallenge(challenge),
        payload: { code },
      }),
    session: (session: string | undefined) =>
      t.app.inject({
        method: 'GET',
        url: '/api/session',
        headers: { cookie: `triage_session=${session ?? ''}` },
      }),
    /** Enrols on the account page with a session. */
    async enrolSignedIn(session: string) {
      const started = await t.app.inject({
        method: 'POST',
        url: '/api/account/second-factor/enrolment',
        headers: { cookie: `triage_session=${session}` },
      });
      const { secret } = started.json<SecondFactorEnrolment>();
      const confirmed = await t.app.inject({
        method: 'POST',
        url: '/api/account/second-factor/confirmation',
        headers: { cookie: `triage_session=${session}` },
        payload: { code: codeFor(secret) },
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
    },
    async requiredSince(userId: string) {
      const row = await t.database.db
        .selectFrom('users')
        .select('second_factor_required_since')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return row.second_factor_required_since;
    },
    async audit(userId: string) {
      const rows = await t.database.db
        .selectFrom('audit_events')
        .select(['action', 'outcome'])
        .where('target_id', '=', userId)
        .where('action', '!=', 'user_create')
        .orderBy('id')
        .execute();
      return rows.map((row) => `${row.action} ${row.outcome}`);
    },
    deadline: (days: number) => new Date(t.context.now().getTime() + days * day).toISOString(),
  };
  return steps;
}

describe.each(testDatabases())('a second factor required of a role, on $engine', (testDatabase) => {
  it('lets a required role sign in with the password within the grace, and says when it ends', async () => {
    await withApp(testDatabase, {}, async (t, steps) => {
      const admin = await steps.user('admin');
      const began = steps.deadline(7);
      const first = await steps.password(admin.username);
      expect(first.challenge).toBeUndefined();
      expect(first.body).toMatchObject({
        user: { username: admin.username, role: 'admin' },
        secondFactorRequiredBy: began,
      });
      expect((await steps.session(first.session)).json()).toMatchObject({
        secondFactorRequiredBy: began,
      });

      // Later sign-ins within the grace keep its end where the first one put it.
      t.advance(6 * day + 23 * 3_600_000);
      const later = await steps.password(admin.username);
      expect(later.session).toBeDefined();
      expect(later.body).toMatchObject({ secondFactorRequiredBy: began });

      // Enrolling on the account page ends the requirement's notice.
      await steps.enrolSignedIn(later.session ?? '');
      expect((await steps.session(later.session)).json()).toMatchObject({
        secondFactorRequiredBy: null,
      });
      expect(await steps.requiredSince(admin.id)).toBeNull();
      expect(await steps.audit(admin.id)).toEqual([
        'second_factor_grace_start success',
        'login success',
        'login success',
        'second_factor_enrol success',
        'second_factor_confirm success',
      ]);
    });
  });

  it('past the grace gives no session: the challenge admits enrolment alone, whose confirmation signs in', async () => {
    await withApp(testDatabase, {}, async (t, steps) => {
      const admin = await steps.user('admin');
      await steps.password(admin.username);
      t.advance(7 * day);

      const late = await steps.password(admin.username);
      expect(late.body).toEqual({ secondFactorEnrolmentRequired: true });
      expect(late.session).toBeUndefined();
      expect(late.challenge).toBeDefined();
      const challengeCookie = late.response.cookies.find(
        (cookie) => cookie.name === 'triage_second_factor',
      );
      expect(challengeCookie).toMatchObject({ path: '/api/session', httpOnly: true, maxAge: 300 });

      // The challenge is no session, on any route, nor an answer to the code step.
      expect((await steps.session(late.challenge)).statusCode).toBe(401);
      for (const url of ['/api/session', '/api/users', '/api/account/second-factor']) {
        const response = await t.app.inject({
          method: 'GET',
          url,
          headers: steps.withChallenge(late.challenge),
        });
        expect({ url, status: response.statusCode }).toEqual({ url, status: 401 });
      }
      const accountEnrolment = await t.app.inject({
        method: 'POST',
        url: '/api/account/second-factor/enrolment',
        headers: steps.withChallenge(late.challenge),
      });
      expect(accountEnrolment.statusCode).toBe(401);
      const codeStep = await t.app.inject({
        method: 'POST',
        url: '/api/session/second-factor',
        headers: steps.withChallenge(late.challenge),
        payload: { code: '123456' },
      });
      expect(codeStep.statusCode).toBe(401);

      const started = await steps.enrolment(late.challenge);
      expect(started.statusCode, started.body).toBe(200);
      const enrolment = started.json<SecondFactorEnrolment>();
      expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(enrolment.otpauthUri).toContain(`otpauth://totp/`);
      expect(enrolment.qrCode).toMatch(/^data:image\/png;base64,/);

      const wrongCode = String((Number(steps.codeFor(enrolment.secret)) + 1) % 1_000_000);
      const wrong = await steps.confirmation(late.challenge, wrongCode.padStart(6, '0'));
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({
        error: { code: 'validation_failed', field: 'code', message: secondFactorTexts.wrongCode },
      });
      expect(cookieOf(wrong, 'triage_session')).toBeUndefined();

      const confirmed = await steps.confirmation(late.challenge, steps.codeFor(enrolment.secret));
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const signedIn = confirmed.json<SignInEnrolmentConfirmed>();
      expect(signedIn).toMatchObject({
        user: { id: admin.id, username: admin.username, role: 'admin' },
        secondFactorRequiredBy: null,
      });
      expect(signedIn.recoveryCodes).toHaveLength(10);
      const session = cookieOf(confirmed, 'triage_session');
      const answer = await steps.session(session);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ secondFactorRequiredBy: null });
      expect(await steps.requiredSince(admin.id)).toBeNull();
      // The challenge is answered once.
      expect((await steps.confirmation(late.challenge, '123456')).statusCode).toBe(401);

      // From now on the password asks for a code, and a recovery code answers it.
      t.advance(30_000);
      const next = await steps.password(admin.username);
      expect(next.body).toEqual({ secondFactorRequired: true });
      const answered = await t.app.inject({
        method: 'POST',
        url: '/api/session/second-factor',
        headers: steps.withChallenge(next.challenge),
        payload: { code: signedIn.recoveryCodes[0] },
      });
      expect(answered.statusCode, answered.body).toBe(200);

      expect(await steps.audit(admin.id)).toEqual([
        'second_factor_grace_start success',
        'login success',
        'second_factor_enrolment_required success',
        'second_factor_enrol success',
        'second_factor_failed failure',
        'second_factor_confirm success',
        'login success',
        'second_factor_challenge success',
        'second_factor_recovery_code_used success',
        'login success',
      ]);
    });
  });

  it('with a grace of 0 days asks for enrolment at the first sign-in', async () => {
    await withApp(testDatabase, { MFA_GRACE_DAYS: '0' }, async (t, steps) => {
      const admin = await steps.user('admin');
      // A clock that moves on at every read, as a real one does during a sign-in.
      let ms = t.context.now().getTime();
      t.context.now = () => new Date(ms++);
      const first = await steps.password(admin.username);
      expect(first.body).toEqual({ secondFactorEnrolmentRequired: true });
      expect(first.session).toBeUndefined();
      expect((await steps.enrolment(first.challenge)).statusCode).toBe(200);
    });
  });

  it('leaves roles not required, and everyone when no role is required, as they were', async () => {
    await withApp(testDatabase, { MFA_GRACE_DAYS: '0' }, async (_t, steps) => {
      for (const role of ['nurse', 'doctor'] as const) {
        const user = await steps.user(role);
        const signedIn = await steps.password(user.username);
        expect(signedIn.body).toMatchObject({ user: { role }, secondFactorRequiredBy: null });
        expect((await steps.session(signedIn.session)).statusCode).toBe(200);
        expect(await steps.requiredSince(user.id)).toBeNull();
        // Nor may they use the enrolment routes of sign-in: they have no challenge.
        expect((await steps.enrolment(undefined)).statusCode).toBe(401);
      }
    });
    await withApp(
      testDatabase,
      { MFA_REQUIRED_ROLES: '', MFA_GRACE_DAYS: '0' },
      async (_t, steps) => {
        const admin = await steps.user('admin');
        const signedIn = await steps.password(admin.username);
        expect(signedIn.body).toMatchObject({
          user: { role: 'admin' },
          secondFactorRequiredBy: null,
        });
        expect(await steps.requiredSince(admin.id)).toBeNull();
      },
    );
  });

  it('requires it of every role listed', async () => {
    await withApp(
      testDatabase,
      { MFA_REQUIRED_ROLES: 'nurse,doctor', MFA_GRACE_DAYS: '0' },
      async (_t, steps) => {
        for (const role of ['nurse', 'doctor'] as const) {
          const user = await steps.user(role);
          expect((await steps.password(user.username)).body).toEqual({
            secondFactorEnrolmentRequired: true,
          });
        }
        const admin = await steps.user('admin');
        expect((await steps.password(admin.username)).session).toBeDefined();
      },
    );
  });

  it('starts a fresh grace after triage user reset-mfa', async () => {
    await withApp(testDatabase, {}, async (t, steps) => {
      const admin = await steps.user('admin');
      const first = await steps.password(admin.username);
      await steps.enrolSignedIn(first.session ?? '');
      t.advance(30 * day);
      expect(await resetSecondFactor(t.context, operator, admin.username)).toBe(true);

      const next = await steps.password(admin.username);
      expect(next.session).toBeDefined();
      expect(next.body).toMatchObject({ secondFactorRequiredBy: steps.deadline(7) });
    });
  });

  it('starts the grace at the first sign-in after a role change to a required role', async () => {
    await withApp(testDatabase, {}, async (t, steps) => {
      await steps.user('admin'); // so that the nurse made administrator is not the last one
      const nurse = await steps.user('nurse');
      await steps.password(nurse.username);
      await updateUser(t.context, operator, nurse.id, { role: 'admin' });
      t.advance(3 * day);
      expect((await steps.password(nurse.username)).body).toMatchObject({
        user: { role: 'admin' },
        secondFactorRequiredBy: steps.deadline(7),
      });

      // Past the grace, a change away and back gives a fresh one.
      t.advance(8 * day);
      expect((await steps.password(nurse.username)).body).toEqual({
        secondFactorEnrolmentRequired: true,
      });
      await updateUser(t.context, operator, nurse.id, { role: 'doctor' });
      expect(await steps.requiredSince(nurse.id)).toBeNull();
      await updateUser(t.context, operator, nurse.id, { role: 'admin' });
      expect((await steps.password(nurse.username)).body).toMatchObject({
        secondFactorRequiredBy: steps.deadline(7),
      });
    });
  });

  it('lets the enrolment challenge expire after five minutes, and refuses steps without one', async () => {
    await withApp(testDatabase, { MFA_GRACE_DAYS: '0' }, async (t, steps) => {
      const admin = await steps.user('admin');
      expect((await steps.enrolment(undefined)).statusCode).toBe(401);
      expect((await steps.confirmation('made-up', '123456')).statusCode).toBe(401);
      const { challenge } = await steps.password(admin.username);
      const { secret } = (await steps.enrolment(challenge)).json<SecondFactorEnrolment>();
      t.advance(5 * 60_000);
      for (const late of [
        await steps.enrolment(challenge),
        await steps.confirmation(challenge, steps.codeFor(secret)),
      ]) {
        expect(late.statusCode).toBe(401);
        expect(late.json()).toMatchObject({ error: { message: secondFactorTexts.expired } });
      }
      // A new password step gives a new challenge; the secret begun is replaced by a new one.
      const again = await steps.password(admin.username);
      const renewed = (await steps.enrolment(again.challenge)).json<SecondFactorEnrolment>();
      expect(renewed.secret).not.toBe(secret);
      expect((await steps.confirmation(again.challenge, steps.codeFor(secret))).statusCode).toBe(
        400,
      );
      const confirmed = await steps.confirmation(again.challenge, steps.codeFor(renewed.secret));
      expect(confirmed.statusCode, confirmed.body).toBe(200);
    });
  });

  it('throttles the confirmation at sign-in as the second step: 5 attempts, then refused', async () => {
    await withApp(testDatabase, { MFA_GRACE_DAYS: '0' }, async (_t, steps) => {
      const admin = await steps.user('admin');
      const { challenge } = await steps.password(admin.username);
      const { secret } = (await steps.enrolment(challenge)).json<SecondFactorEnrolment>();
      const wrong = steps.codeFor(secret) === '000000' ? '111111' : '000000';
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await steps.confirmation(challenge, wrong)).statusCode).toBe(400);
      }
      const refused = await steps.confirmation(challenge, steps.codeFor(secret));
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        error: { code: 'too_many_attempts', message: tooManyAttemptsMessage },
      });
      expect(cookieOf(refused, 'triage_session')).toBeUndefined();
    });
  });

  it('leaves API tokens and the metrics token alone, and asks enrolled users for their code', async () => {
    await withApp(
      testDatabase,
      { MFA_GRACE_DAYS: '0', METRICS_TOKEN: 'm'.repeat(40) },
      async (t, steps) => {
        const { token } = await createApiToken(t.context, operator, 'record-system');
        const fhir = await t.app.inject({
          method: 'GET',
          url: '/fhir/Patient?identifier=nobody',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(fhir.statusCode, fhir.body).toBe(200);
        const metrics = await t.app.inject({
          method: 'GET',
          url: '/api/metrics',
          headers: { authorization: `Bearer ${'m'.repeat(40)}` },
        });
        expect(metrics.statusCode).toBe(200);
        // Enrolled users are asked for their code, whatever the grace.
        const admin = await steps.user('admin');
        const challenged = await steps.password(admin.username);
        const { secret } = (
          await steps.enrolment(challenged.challenge)
        ).json<SecondFactorEnrolment>();
        await steps.confirmation(challenged.challenge, steps.codeFor(secret));
        t.advance(30_000);
        expect((await steps.password(admin.username)).body).toEqual({
          secondFactorRequired: true,
        });
      },
    );
  });
});
