import { adminPassword, adminUsername, signIn, signInAsAdmin, signOut } from './fixtures.ts';
import { expect, test } from './page-checks.ts';

const gateTitle = { name: 'Secure Access Required' };

test('the gate shows the prompt, and its button waits for both fields', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', gateTitle)).toBeVisible();
  await expect(
    page.getByText(
      'Please enter your password to access the Chronic Disease Risk Assessment System',
    ),
  ).toBeVisible();
  const button = page.getByRole('button', { name: 'Access System' });
  await expect(button).toBeDisabled();
  await page.getByLabel('User name').fill(adminUsername);
  await expect(button).toBeDisabled();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('x');
  await expect(button).toBeEnabled();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('');
  await expect(button).toBeDisabled();
});

test('the show/hide toggle is reachable by keyboard and reveals the password', async ({ page }) => {
  await page.goto('/');
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  await password.fill('visible-now');
  await expect(password).toHaveAttribute('type', 'password');
  await password.press('Tab');
  const toggle = page.getByRole('button', { name: 'Show password' });
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(password).toHaveAttribute('type', 'text');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
});

test('a wrong password is refused with the spec message and the field is cleared', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByLabel('User name').fill(adminUsername);
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  await password.fill('not-the-password');
  await page.getByRole('button', { name: 'Access System' }).click();
  await expect(page.getByRole('button', { name: 'Authenticating...' })).toBeDisabled();
  await expect(page.getByText('Incorrect password. Please try again.')).toBeVisible();
  await expect(password).toHaveValue('');
  await expect(password).toBeFocused();
  await expect(page.getByRole('button', { name: 'Access System' })).toBeDisabled();
  expect(await page.evaluate('localStorage.getItem("triage_authenticated")')).toBeNull();
});

test('signing in shows the shell, survives a reload, and signing out returns to the gate', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const header = page.getByRole('banner');
  await expect(header.getByText('Chronic Disease Risk Assessment System')).toBeVisible();
  await expect(header.getByText(adminUsername, { exact: true })).toBeVisible();
  await expect(header.getByText('Administrator')).toBeVisible();
  const navigation = page.getByRole('navigation', { name: 'Main' });
  await expect(navigation.getByRole('link', { name: 'Users' })).toBeVisible();
  await expect(navigation.getByRole('link', { name: 'Audit Trail' })).toBeVisible();
  expect(await page.evaluate('localStorage.getItem("triage_authenticated")')).toBe('true');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  await signOut(page);
  expect(await page.evaluate('localStorage.getItem("triage_authenticated")')).toBeNull();
  await page.reload();
  await expect(page.getByRole('heading', gateTitle)).toBeVisible();
});

test('the stored flag alone does not grant access', async ({ page }) => {
  await page.goto('/');
  // The gate shows once the session check has answered (and cleared any stale flag).
  await expect(page.getByRole('heading', gateTitle)).toBeVisible();
  await page.evaluate('localStorage.setItem("triage_authenticated", "true")');
  await page.reload();
  await expect(page.getByRole('heading', gateTitle)).toBeVisible();
  await expect(page.getByText('Authentication issue. Please try logging in again.')).toBeVisible();
});

test('a session ended on the server brings back the gate, then the same view', async ({
  page,
  context,
}) => {
  // The dashboard's own requests (some start once their part of the page has loaded) must not
  // be the ones that find the session gone: the click on Users is. Doctor Agreement loads last,
  // after the browser is idle, and may ask for its figures after the network first fell quiet.
  const agreement = page.waitForResponse((response) =>
    response.url().includes('/api/reviews/agreement'),
  );
  await signInAsAdmin(page);
  await agreement;
  await page.waitForLoadState('networkidle');
  await context.clearCookies();
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', gateTitle)).toBeVisible();
  await expect(page.getByText('Authentication issue. Please try logging in again.')).toBeVisible();
  await signIn(page, adminUsername, adminPassword);
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
});

test('an unknown address shows a page-not-found view with a way home', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

test('after repeated failures the gate shows the server throttling message', async ({ page }) => {
  await page.goto('/');
  // An unknown user name keeps the administrator's own failure count untouched.
  await page.getByLabel('User name').fill('nobody.throttled');
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  const button = page.getByRole('button', { name: 'Access System' });
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await password.fill(`wrong-${attempt}`);
    await button.click();
    await expect(page.getByText('Incorrect password. Please try again.')).toBeVisible();
  }
  await password.fill('wrong-6');
  await button.click();
  await expect(
    page.getByText('Too many failed sign-in attempts. Please wait 15 minutes and try again.'),
  ).toBeVisible();
  await expect(password).toHaveValue('');
});
