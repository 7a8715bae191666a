import { afterEach, describe, expect, it } from 'vitest';
import { everythingScope } from '../auth/scope.ts';
import { usersRepository } from '../db/repositories/users.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { createOrgUnit, findOrgUnitByCode } from './org-units.ts';
import { createUser, ensureFirstAdministrator, listUsers } from './users.ts';

const adminSettings = {
  TRIAGE_ADMIN_USERNAME: 'clinic-admin',
  TRIAGE_ADMIN_PASSWORD: 'copper-heron-lantern-meadow-47',
};

describe.each(testDatabases())('the first administrator, on $engine', (testDatabase) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function start(env: Record<string, string>) {
    const app = await openTestApp(testDatabase, env);
    t = app;
    const said: string[] = [];
    return {
      t: app,
      said,
      ensure: () => ensureFirstAdministrator(app.context, (line) => said.push(line)),
    };
  }

  /** The disabled account `triage seed` attributes its records to, as a seed made before a start. */
  async function disabledNurse(app: TestApp, username: string) {
    const at = app.context.now().toISOString();
    await usersRepository.insert(app.database.db, {
      id: crypto.randomUUID(),
      username,
      display_name: 'Seed Data',
      role: 'nurse',
      password_hash: 'not a password hash',
      disabled: true,
      created_at: at,
      updated_at: at,
    });
  }

  it('is created from the environment on a first start, once', async () => {
    const { t, said, ensure } = await start(adminSettings);
    await ensure();
    await ensure();
    const users = await usersRepository.list(t.database.db);
    expect(users.map((user) => [user.username, user.role, user.disabled])).toEqual([
      ['clinic-admin', 'admin', false],
    ]);
    expect(said).toEqual(['Created the first administrator, clinic-admin.']);
  });

  it('works in every top unit when the tree has several units', async () => {
    const { t, ensure } = await start(adminSettings);
    const operator = { user: null, address: null };
    const main = await findOrgUnitByCode(t.context, 'MAIN');
    await createOrgUnit(t.context, operator, { code: 'F-1', name: 'Facility', parentId: main.id });
    const other = await createOrgUnit(t.context, operator, {
      code: 'Other',
      name: 'Another country',
      parentId: null,
    });
    await ensure();
    const [admin] = await listUsers(t.context, everythingScope);
    expect(admin?.units.map((unit) => unit.id).sort()).toEqual([main.id, other.id].sort());
  });

  it('is created when a seed came first and left only its disabled account', async () => {
    const { t, said, ensure } = await start(adminSettings);
    await disabledNurse(t, 'seed-data');
    await ensure();
    const admin = await usersRepository.findByUsername(t.database.db, 'clinic-admin');
    expect(admin?.role).toBe('admin');
    expect(said).toEqual(['Created the first administrator, clinic-admin.']);
  });

  it('says how to create one when the settings are not given', async () => {
    const { t, said, ensure } = await start({});
    await ensure();
    await disabledNurse(t, 'seed-data');
    await ensure();
    expect(said[0]).toMatch(/^No user accounts exist yet\. Create the first administrator with:/);
    expect(said[1]).toMatch(
      /^No enabled administrator exists\. Create the first administrator with:/,
    );
    expect(await usersRepository.list(t.database.db)).toHaveLength(1);
  });

  it('never takes over an existing account of the same name', async () => {
    const { t, said, ensure } = await start(adminSettings);
    await disabledNurse(t, 'clinic-admin');
    await ensure();
    const account = await usersRepository.findByUsername(t.database.db, 'clinic-admin');
    expect([account?.role, account?.disabled, account?.password_hash]).toEqual([
      'nurse',
      true,
      'not a password hash',
    ]);
    expect(said[0]).toBe(
      'TRIAGE_ADMIN_USERNAME names the existing account clinic-admin, which is not an enabled administrator.',
    );
    expect(said[1]).toMatch(/^No enabled administrator exists\./);
  });

  it('does nothing while an enabled administrator exists', async () => {
    const { t, said, ensure } = await start(adminSettings);
    await createUser(
      t.context,
      { user: null, address: null },
      { username: 'head-of-clinic', role: 'admin', password: adminSettings.TRIAGE_ADMIN_PASSWORD },
    );
    await ensure();
    expect((await usersRepository.list(t.database.db)).map((user) => user.username)).toEqual([
      'head-of-clinic',
    ]);
    expect(said).toEqual([]);
  });
});
