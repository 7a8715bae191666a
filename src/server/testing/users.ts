import type { Role } from '../../shared/api/users.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { createUser } from '../services/users.ts';
import type { TestApp } from './app.ts';

export const testPassword = 'a-long-test-passphrase-42';

/**
 * Creates a user and signs them in; returns the Cookie header their requests carry. The user works
 * in the units named (ids), by default MAIN.
 */
export async function signedInAs(
  t: TestApp,
  role: Role,
  username = `${role}-${Math.random().toString(36).slice(2, 8)}`,
  displayName?: string,
  units?: string[],
): Promise<{ cookie: string; userId: string; username: string }> {
  const main = await orgUnitsRepository.findMain(t.database.db);
  const user = await createUser(
    t.context,
    { user: null, address: null },
    {
      username,
      role,
      password: testPassword,
      displayName,
      units: units ?? (main === undefined ? undefined : [main.id]),
    },
  );
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/session',
    payload: { username, password: testPassword },
  });
  if (response.statusCode !== 200) throw new Error(`Sign-in failed: ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'triage_session');
  if (cookie === undefined) throw new Error('No session cookie was set');
  return { cookie: `triage_session=${cookie.value}`, userId: user.id, username };
}
