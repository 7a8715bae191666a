import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everythingScope } from '../auth/scope.ts';
import type { User } from '../../shared/api/users.ts';
import { createUser, listUsers, updateUser } from '../services/users.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs, testPassword } from '../testing/users.ts';

const operator = { user: null, address: 'command line' };

describe.each(testDatabases())('the last active administrator on $engine', (testDatabase) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await openTestApp(testDatabase);
  });
  afterEach(async () => {
    await t.close();
  });

  const patch = (cookie: string, id: string, payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/api/users/${id}`, headers: { cookie }, payload });

  const addAdmin = (username: string) =>
    createUser(t.context, operator, { username, role: 'admin', password: testPassword });

  it('is neither disabled nor demoted from the command line (no signed-in user)', async () => {
    const only = await addAdmin('only-admin');
    await expect(
      updateUser(t.context, operator, only.id, { disabled: true }),
    ).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
      field: 'disabled',
      message:
        'only-admin is the last active administrator: make another account an administrator first.',
    });
    await expect(
      updateUser(t.context, operator, only.id, { role: 'doctor' }),
    ).rejects.toMatchObject({ status: 409, field: 'role' });
    const [stored] = await listUsers(t.context, everythingScope);
    expect(stored).toMatchObject({ role: 'admin', disabled: false });
  });

  it('counts only enabled administrators: a disabled one does not stand in', async () => {
    const first = await addAdmin('first-admin');
    const second = await addAdmin('second-admin');
    await updateUser(t.context, operator, second.id, { disabled: true });
    await expect(
      updateUser(t.context, operator, first.id, { role: 'nurse' }),
    ).rejects.toMatchObject({
      status: 409,
      field: 'role',
    });
    // Enabled again, the second lets the first go.
    await updateUser(t.context, operator, second.id, { disabled: false });
    expect(await updateUser(t.context, operator, first.id, { role: 'nurse' })).toMatchObject({
      role: 'nurse',
    });
  });

  it('still lets an administrator disable another while one stays', async () => {
    const admin = await signedInAs(t, 'admin');
    const other = await addAdmin('other-admin');
    const response = await patch(admin.cookie, other.id, { disabled: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<User>().disabled).toBe(true);
  });

  it('refuses one of two administrators disabling each other at once, with a 409 and its field', async () => {
    const first = await signedInAs(t, 'admin');
    const second = await signedInAs(t, 'admin');
    const answers = await Promise.all([
      patch(first.cookie, second.userId, { disabled: true }),
      patch(second.cookie, first.userId, { disabled: true }),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    // The second may also find its session ended by the first (401); never are both disabled.
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    if (refused !== undefined) {
      expect(refused.json()).toMatchObject({ error: { code: 'conflict', field: 'disabled' } });
    }
    const admins = (await listUsers(t.context, everythingScope)).filter(
      (u) => u.role === 'admin' && !u.disabled,
    );
    expect(admins).toHaveLength(1);
  });

  it('refuses an administrator demoting the other when that one is the last left', async () => {
    const first = await signedInAs(t, 'admin');
    const second = await signedInAs(t, 'admin');
    const answers = await Promise.all([
      patch(first.cookie, second.userId, { role: 'doctor' }),
      patch(second.cookie, first.userId, { role: 'doctor' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()[0]).toBe(200);
    const admins = (await listUsers(t.context, everythingScope)).filter(
      (u) => u.role === 'admin' && !u.disabled,
    );
    expect(admins).toHaveLength(1);
  });
});
