import { describe, expect, it } from 'vitest';
import { createUser } from '../../services/users.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs, testPassword } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { usersRepository } from '../repositories/users.ts';
import { oidcSignIn } from './20261128T1200-oidc-sign-in.ts';
import { migrations } from './index.ts';

describe.each(testDatabases())('the oidc-sign-in migration on $engine', (testDatabase) => {
  it('adds the subject, break-glass and ID token columns to a database with users and sessions', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const db = t.database.db;
      // The database as the version before made it, with accounts and a live session.
      await undoThrough(t.database, oidcSignIn.name);
      await expect(db.selectFrom('users').select('oidc_subject').execute()).rejects.toThrow();
      await expect(db.selectFrom('sessions').select('id_token').execute()).rejects.toThrow();
      const nurse = await signedInAs(t, 'nurse', 'nurse-before-upgrade');
      const doctor = await createUser(
        t.context,
        { user: null, address: null },
        { username: 'doctor-before-upgrade', role: 'doctor', password: testPassword },
      );

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(oidcSignIn)).map((migration) => migration.name),
      );
      // Every account is as it was: linked to no subject, not break-glass.
      for (const id of [nurse.userId, doctor.id]) {
        expect(await usersRepository.findById(db, id)).toMatchObject({
          oidc_subject: null,
          break_glass: false,
          disabled: false,
        });
      }
      // The session begun before the upgrade goes on, with no ID token (it signs out locally).
      const session = await t.app.inject({
        method: 'GET',
        url: '/api/session',
        headers: { cookie: nurse.cookie },
      });
      expect(session.statusCode).toBe(200);
      expect(await db.selectFrom('sessions').select('id_token').execute()).toEqual([
        { id_token: null },
      ]);
      const signOut = await t.app.inject({
        method: 'DELETE',
        url: '/api/session',
        headers: { cookie: nurse.cookie },
      });
      expect(signOut.statusCode).toBe(204);

      // A subject links one account only; accounts without one are many.
      await db
        .updateTable('users')
        .set({ oidc_subject: 'subject-1' })
        .where('id', '=', doctor.id)
        .execute();
      await expect(
        db
          .updateTable('users')
          .set({ oidc_subject: 'subject-1' })
          .where('id', '=', nurse.userId)
          .execute(),
      ).rejects.toThrow();

      // And back: the columns and the table go, the accounts stay.
      await undoThrough(t.database, oidcSignIn.name);
      await expect(db.selectFrom('oidc_sign_ins').selectAll().execute()).rejects.toThrow();
      expect(
        (await db.selectFrom('users').select('username').orderBy('username').execute()).map(
          (row) => row.username,
        ),
      ).toEqual(['doctor-before-upgrade', 'nurse-before-upgrade']);
      await migrateToLatest(t.database);
      expect((await usersRepository.findById(db, doctor.id))?.oidc_subject).toBeNull();
    } finally {
      await t.close();
    }
  });
});
