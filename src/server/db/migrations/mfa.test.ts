import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import type { SecondFactorEnrolment } from '../../../shared/api/second-factor.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs, testPassword } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { mfa } from './20261125T0620-mfa.ts';
import { migrations } from './index.ts';

const body = {
  demographics: { age: 58, gender: 'Female', height: 165, weight: 80 },
  riskFactors: { familyHistory: { DM2: true } },
};

/** This migration, and any made after it. */
const laterMigrations = migrations
  .slice(migrations.indexOf(mfa))
  .map((migration) => migration.name);

const secondFactorTables = [
  'user_second_factors',
  'second_factor_recovery_codes',
  'second_factor_challenges',
] as const;

describe.each(testDatabases())('the mfa migration on $engine', (testDatabase) => {
  it('adds the second factor to a database with users, sessions and assessments: nobody is asked for one until enrolled', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const nurse = await signedInAs(t, 'nurse');
      const admin = await signedInAs(t, 'admin');
      const saved = await t.app.inject({
        method: 'POST',
        url: '/api/assessments',
        headers: { cookie: nurse.cookie },
        payload: body,
      });
      expect(saved.statusCode, saved.body).toBe(201);
      const { id } = saved.json<Assessment>();
      const read = async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/assessments/${id}`,
            headers: { cookie: nurse.cookie },
          })
        ).json<Assessment>();
      const before = await read();

      // The database as the version before this migration made it, with these rows in it.
      await undoThrough(t.database, mfa.name);
      // Each table read, not listed by introspection: on PostgreSQL that lists the tables of
      // other tests' schemas too.
      const exists = async (table: (typeof secondFactorTables)[number]) =>
        t.database.db
          .selectFrom(table)
          .selectAll()
          .execute()
          .then(
            () => true,
            () => false,
          );
      for (const table of secondFactorTables) expect(await exists(table)).toBe(false);

      expect(await migrateToLatest(t.database)).toEqual(laterMigrations);
      for (const table of secondFactorTables) expect(await exists(table)).toBe(true);
      // The sessions made before still work, the records read the same.
      expect(await read()).toEqual(before);
      const signIn = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/session',
          payload: { username: admin.username, password: testPassword },
        });
      expect((await signIn()).json()).toMatchObject({ user: { username: admin.username } });

      const started = await t.app.inject({
        method: 'POST',
        url: '/api/account/second-factor/enrolment',
        headers: { cookie: admin.cookie },
      });
      expect(started.statusCode, started.body).toBe(200);
      const { secret } = started.json<SecondFactorEnrolment>();
      const confirmed = await t.app.inject({
        method: 'POST',
        url: '/api/account/second-factor/confirmation',
        headers: { cookie: admin.cookie },
        payload: {
          code: TOTP.generate({
            secret: Secret.fromBase32(secret),
            timestamp: t.context.now().getTime(),
          }),
        },
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect((await signIn()).json()).toEqual({ secondFactorRequired: true });

      // And back: the rows of the second factor go with its tables; the rest stays.
      await undoThrough(t.database, mfa.name);
      for (const table of secondFactorTables) expect(await exists(table)).toBe(false);
      expect(await migrateToLatest(t.database)).toEqual(laterMigrations);
      expect((await signIn()).json()).toMatchObject({ user: { username: admin.username } });
      expect(await read()).toEqual(before);
    } finally {
      await t.close();
    }
  });
});
