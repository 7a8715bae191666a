import { expect, type Page } from '@playwright/test';

/** The first administrator, created by the server from the environment (playwright.config.ts). */
export const adminUsername = 'admin';
export const adminPassword = 'copper-heron-lantern-meadow-47';

/** Signs in through the gate and waits for the signed-in shell. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('User name').fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Access System' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto('/');
  await signIn(page, adminUsername, adminPassword);
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
}

const newUserPassword = 'amber-falcon-harbour-tide-62';

/** Has the administrator create a user with the given role, then signs in as that user. */
export async function signInAsNewUser(
  page: Page,
  username: string,
  role: 'nurse' | 'doctor',
  displayName = username,
): Promise<void> {
  await signInAsAdmin(page);
  const created = await page.request.post('/api/users', {
    data: { username, displayName, role, password: newUserPassword },
  });
  expect(created.status()).toBe(201);
  await signOut(page);
  await signIn(page, username, newUserPassword);
}

/** Types the password that opens what the device keeps, as a full page load asks for it. */
export async function unlockDevice(page: Page, password: string): Promise<void> {
  const unlock = page.getByRole('region', { name: 'Unlock what is kept on this device' });
  await unlock.getByRole('textbox', { name: 'Password' }).fill(password);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
}
