import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import type { SecondFactorEnrolment } from '../../../shared/api/second-factor.ts';
import { createUser } from '../../services/users.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs, testPassword } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { mfaRequired } from './20261125T0700-mfa-required.ts';
import { migrations } from './index.ts';

const day = 86_400_000;

describe.each(testDatabases())('the mfa-required migration on $engine', (testDatabase) => {
  it('adds the grace and the challenge purpose to a database with users, factors and a pending second step', async () => {
    const t = await openTestApp(testDatabase, { MFA_REQUIRED_ROLES: 'admin', MFA_GRACE_DAYS: '7' });
    try {
      const db = t.database.db;
      const signIn = (username: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/session',
          payload: { username, password: testPassword },
        });
      const challengeOf = (response: Awaited<ReturnType<typeof signIn>>) =>
        response.cookies.find((cookie) => cookie.name === 'triage_second_factor')?.value;
      const codeFor = (secret: string) =>
        TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: t.context.now().getTime() });

      // A doctor with a confirmed factor, whose password step awaits its code.
      const doctor = await signedInAs(t, 'doctor');
      const started = await t.app.inject({
        method: 'POST',
        url: '/api/account/second-factor/enrolment',
        headers: { cookie: doctor.cookie },
      });
      const { secret } = started.json<SecondFactorEnrolment>();
      const confirmed = await t.app.inject({
        method: 'POST',
        url: '/api/account/second-factor/confirmation',
        headers: { cookie: doctor.cookie },
        payload: { code: codeFor(secret) },
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      t.advance(30_000);
      const pending = challengeOf(await signIn(doctor.username));
      expect(pending).toBeDefined();

      // The database as the version before this migration made it, an administrator added to it.
      await undoThrough(t.database, mfaRequired.name);
      // (Not by introspection: on PostgreSQL it lists the tables of other tests' schemas too.)
      await expect(
        db.selectFrom('users').select('second_factor_required_since').execute(),
      ).rejects.toThrow();
      await expect(
        db.selectFrom('second_factor_challenges').select('purpose').execute(),
      ).rejects.toThrow();
      const admin = await createUser(
        t.context,
        { user: null, address: null },
        { username: 'admin-before-upgrade', role: 'admin', password: testPassword },
      );

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(mfaRequired)).map((migration) => migration.name),
      );
      const since = async (id: string) =>
        (
          await db
            .selectFrom('users')
            .select('second_factor_required_since')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).second_factor_required_since;
      expect(await since(admin.id)).toBeNull();
      expect(await since(doctor.userId)).toBeNull();
      // The second step begun before the upgrade is a code challenge, answered as before.
      const answered = await t.app.inject({
        method: 'POST',
        url: '/api/session/second-factor',
        headers: { cookie: `triage_second_factor=${pending}` },
        payload: { code: codeFor(secret) },
      });
      expect(answered.statusCode, answered.body).toBe(200);

      // The administrator's first sign-in after the upgrade begins the grace: no lock-out.
      const first = await signIn(admin.username);
      expect(first.json()).toMatchObject({
        user: { username: admin.username },
        secondFactorRequiredBy: new Date(t.context.now().getTime() + 7 * day).toISOString(),
      });
      expect(await since(admin.id)).toBe(t.context.now().toISOString());
      t.advance(8 * day);
      const late = await signIn(admin.username);
      expect(late.json()).toEqual({ secondFactorEnrolmentRequired: true });

      // And back: the enrolment challenge goes (it would read as a code challenge), the rest stays.
      await undoThrough(t.database, mfaRequired.name);
      expect(
        await db
          .selectFrom('second_factor_challenges')
          .select('user_id')
          .where('user_id', '=', admin.id)
          .execute(),
      ).toEqual([]);
      expect(
        await db.selectFrom('users').select('id').where('id', '=', admin.id).execute(),
      ).toEqual([{ id: admin.id }]);
      await migrateToLatest(t.database);
      // The grace's start went with its column: the next sign-in begins a fresh one.
      expect((await signIn(admin.username)).json()).toMatchObject({
        secondFactorRequiredBy: new Date(t.context.now().getTime() + 7 * day).toISOString(),
      });
    } finally {
      await t.close();
    }
  });
});
