import { describe, expect, it } from 'vitest';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { requestsAs } from '../../testing/requests.ts';
import { signedInAs, testPassword } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { managerRole } from './20261128T1310-manager-role.ts';

const at = '2026-11-22T08:00:00.000Z';

describe.each(testDatabases())('the manager-role migration on $engine', (testDatabase) => {
  it('admits the role manager and keeps the users, their references and constraints', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const db = t.database.db;
      const admin = await signedInAs(t, 'admin');
      await signedInAs(t, 'nurse', 'nurse-before');

      // The version before: no manager is admitted.
      await undoThrough(t.database, managerRole.name);
      const manager = {
        id: 'u-manager',
        username: 'manager-one',
        display_name: 'Manager One',
        role: 'manager' as const,
        password_hash: 'x',
        disabled: false,
        created_at: at,
        updated_at: at,
      };
      await expect(db.insertInto('users').values(manager).execute()).rejects.toThrow();
      const before = await db.selectFrom('users').selectAll().orderBy('id').execute();
      const sessions = await db.selectFrom('sessions').selectAll().orderBy('id_hash').execute();
      const units = await db.selectFrom('user_units').selectAll().orderBy('user_id').execute();
      expect(before).toHaveLength(2);
      expect(sessions).toHaveLength(2);

      // It runs first of the migrations undone; any later ones follow it.
      expect((await migrateToLatest(t.database))[0]).toBe(managerRole.name);

      expect(await db.selectFrom('users').selectAll().orderBy('id').execute()).toEqual(before);
      expect(await db.selectFrom('sessions').selectAll().orderBy('id_hash').execute()).toEqual(
        sessions,
      );
      expect(await db.selectFrom('user_units').selectAll().orderBy('user_id').execute()).toEqual(
        units,
      );
      // The signed-in administrator's session still works.
      const call = requestsAs(t);
      expect((await call(admin, 'GET', '/api/users')).statusCode).toBe(200);

      await db.insertInto('users').values(manager).execute();
      await expect(
        db
          .insertInto('users')
          .values({ ...manager, id: 'u-other', role: 'boss' as 'manager' })
          .execute(),
      ).rejects.toThrow();
      // The user name is unique still, and references to users are still checked.
      await expect(
        db
          .insertInto('users')
          .values({ ...manager, id: 'u-again' })
          .execute(),
      ).rejects.toThrow();
      await expect(
        db
          .insertInto('sessions')
          .values({
            id_hash: 'h',
            user_id: 'nobody',
            created_at: at,
            last_seen_at: at,
            ended_at: null,
          })
          .execute(),
      ).rejects.toThrow();
      await expect(
        db.deleteFrom('users').where('id', '=', admin.userId).execute(),
      ).rejects.toThrow();
      const made = await call(admin, 'POST', '/api/users', {
        username: 'manager-two',
        role: 'manager',
        password: testPassword,
      });
      expect(made.statusCode, made.body).toBe(201);
    } finally {
      await t.close();
    }
  });
});
