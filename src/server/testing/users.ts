import type { Role } from '../../shared/api/users.ts';
import { createUser } from '../services/users.ts';
import type { TestApp } from './app.ts';

export const testPassword = 'a-long-test-passphrase-42';

/** Creates a user and signs them in; returns the Cookie header their requests carry. */
export async function signedInAs(
  t: TestApp,
  role: Role,
  username = `${role}-${Math.random().toString(36).slice(2, 8)}`,
  displayName?: string,
): Promise<{ cookie: string; userId: string; username: string }> {
  const user = await createUser(
    t.context,
    { user: null, address: null },
    { username, role, password: testPassword, displayName },
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
