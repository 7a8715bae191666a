import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

describe.each(testDatabases())('the audit trail download on $engine', (testDatabase) => {
  let t: TestApp;
  let admin: { cookie: string; userId: string; username: string };

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    admin = await signedInAs(t, 'admin', 'admin-audit');
  });
  afterAll(async () => {
    await t.close();
  });

  const trail = () => t.database.db.selectFrom('audit_events').selectAll().orderBy('id').execute();
  const download = (cookie: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/audit.csv${query}`, headers: { cookie } });

  it('writes exactly one export row per download, naming the file and never the filter', async () => {
    for (const query of ['', '?user=nurse-searched-for&action=login&from=2026-11-01']) {
      const before = await trail();
      const response = await download(admin.cookie, query);
      expect(response.statusCode, response.body).toBe(200);
      const added = (await trail()).slice(before.length);
      expect(added).toEqual([
        {
          id: expect.anything() as unknown,
          at: '2026-11-22T09:00:00.000Z',
          user_id: admin.userId,
          username: 'admin-audit',
          action: 'export',
          target_type: 'export',
          target_id: 'audit.csv',
          outcome: 'success',
          address: expect.any(String) as unknown,
          detail: null,
        },
      ]);
      expect(JSON.stringify(added)).not.toContain('searched');
    }
  });

  it("lists each event with its user's display name, and the CSV with ids alone", async () => {
    const nurse = await signedInAs(t, 'nurse', 'nurse-named', 'Nia Named');
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'nobody-at-all', password: 'wrong-password-here' },
    });
    expect(failed.statusCode).toBe(401);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/audit?limit=3',
      headers: { cookie: admin.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { items } = response.json<{ items: Array<Record<string, unknown>> }>();
    // Newest first: the failed sign-in names no user; the nurse's sign-in and creation do.
    expect(items.map((e) => [e.action, e.username, e.displayName, e.userId])).toEqual([
      ['login_failed', 'nobody-at-all', null, null],
      ['login', 'nurse-named', 'Nia Named', nurse.userId],
      ['user_create', null, null, null],
    ]);

    const csv = await download(admin.cookie, '?user=nurse-named');
    expect(csv.body.split('\r\n')[0]).toBe(
      'id,at,user_id,username,action,target_type,target_id,outcome,address,detail',
    );
    expect(csv.body).not.toContain('Nia Named');
  });

  it('writes no export row for a download it refuses', async () => {
    const nurse = await signedInAs(t, 'nurse');
    const before = await trail();
    expect((await download(nurse.cookie)).statusCode).toBe(403);
    const added = (await trail()).slice(before.length);
    expect(added.filter((row) => row.action === 'export')).toEqual([]);
  });
});
