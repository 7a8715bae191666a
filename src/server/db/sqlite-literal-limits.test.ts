import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';

describe('LIMIT and OFFSET on SQLite', () => {
  it('are written as literals when they are safe whole numbers, and still bound otherwise', async () => {
    const handle = openDatabase({ sqliteFile: ':memory:' });
    try {
      await migrateToLatest(handle);
      const users = () => handle.db.selectFrom('users').select('id').where('username', '=', 'x');
      const compiled = (query: ReturnType<typeof users>) => {
        const { sql, parameters } = query.compile();
        return { sql, parameters };
      };
      expect(compiled(users().limit(20).offset(40))).toEqual({
        sql: 'select "id" from "users" where "username" = ? limit 20 offset 40',
        parameters: ['x'],
      });
      expect(compiled(users().limit(1.5)).parameters).toEqual(['x', 1.5]);
      expect(compiled(users().limit(-1)).parameters).toEqual(['x', -1]);
      // The rows are the same either way.
      await handle.db
        .insertInto('users')
        .values(
          ['a', 'b', 'c'].map((name) => ({
            id: name,
            username: name,
            display_name: name,
            role: 'nurse' as const,
            password_hash: 'h',
            disabled: false,
            created_at: '2026-01-01T00:00:00.000Z',
            updated_at: '2026-01-01T00:00:00.000Z',
          })),
        )
        .execute();
      const page = await handle.db
        .selectFrom('users')
        .select('username')
        .orderBy('username')
        .limit(2)
        .offset(1)
        .execute();
      expect(page.map((row) => row.username)).toEqual(['b', 'c']);
    } finally {
      await handle.close();
    }
  });
});
