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

  it('writes no export row for a download it refuses', async () => {
    const nurse = await signedInAs(t, 'nurse');
    const before = await trail();
    expect((await download(nurse.cookie)).statusCode).toBe(403);
    const added = (await trail()).slice(before.length);
    expect(added.filter((row) => row.action === 'export')).toEqual([]);
  });
});
