import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { migrateToLatest } from '../migrate.ts';
import { loginThrottleRepository } from '../repositories/sessions.ts';
import { loginThrottle } from './20261124T2330-login-throttle.ts';

const at = '2026-11-24T09:00:00.000Z';

describe.each(testDatabases())('the login-throttle migration on $engine', ({ open }) => {
  it('replaces the failure rows with counters, keeping accounts and the audit trail', async () => {
    const handle = await open();
    try {
      await undoThrough(handle, loginThrottle.name);
      await handle.db
        .insertInto('users')
        .values({
          id: 'u1',
          username: 'nurse-nia',
          display_name: 'Nia',
          role: 'nurse',
          password_hash: 'scrypt$10$8$1$c2FsdA$a2V5',
          disabled: false,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await sql`insert into login_failures (username, address, at)
        values ('nurse-nia', '10.0.0.1', ${at}), ('nurse-nia', '10.0.0.2', ${at})`.execute(
        handle.db,
      );
      await handle.db
        .insertInto('audit_events')
        .values({ at, username: 'nurse-nia', action: 'login_failed', outcome: 'failure' })
        .execute();

      expect(await migrateToLatest(handle)).toContain(loginThrottle.name);

      // This test's schema only: on PostgreSQL introspection lists other tests' schemas too.
      const tables = (await handle.db.introspection.getTables()).filter(
        (table) => handle.schema === undefined || table.schema === handle.schema,
      );
      expect(tables.map((table) => table.name)).not.toContain('login_failures');
      expect(await handle.db.selectFrom('login_throttle').selectAll().execute()).toEqual([]);
      expect(await handle.db.selectFrom('users').select('username').execute()).toEqual([
        { username: 'nurse-nia' },
      ]);
      expect(
        await handle.db.selectFrom('audit_events').select(['username', 'action']).execute(),
      ).toEqual([{ username: 'nurse-nia', action: 'login_failed' }]);

      const windowStartedBy = '2026-11-24T08:45:00.000Z';
      expect(await loginThrottleRepository.increment(handle.db, 'k', at, windowStartedBy)).toBe(1);
      expect(await loginThrottleRepository.increment(handle.db, 'k', at, windowStartedBy)).toBe(2);
      // A counter whose window has ended starts again.
      const later = '2026-11-24T09:20:00.000Z';
      expect(
        await loginThrottleRepository.increment(handle.db, 'k', later, '2026-11-24T09:05:00.000Z'),
      ).toBe(1);
    } finally {
      await handle.close();
    }
  });
});
