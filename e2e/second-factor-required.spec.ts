import { type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { adminPassword, adminUsername } from './fixtures.ts';
import { startOwnServer, type OwnServer } from './own-server.ts';
import { axeViolations, expect, expectNoHorizontalOverflow, test } from './page-checks.ts';

/**
 * The shared server of the other tests requires no second factor (playwright.config.ts); these
 * start servers of their own, as a clinic's would start: MFA_REQUIRED_ROLES unset
 * (administrators) and the grace as each test says.
 */
function startServer(graceDays: string | undefined): Promise<OwnServer> {
  return startOwnServer({ MFA_REQUIRED_ROLES: undefined, MFA_GRACE_DAYS: graceDays });
}

async function passwordStep(page: Page) {
  await page.getByLabel('User name').fill(adminUsername);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(adminPassword);
  await page.getByRole('button', { name: 'Access System' }).click();
}

/** The code an authenticator app shows for the secret, `stepsAhead` time steps from now. */
function codeFor(secret: string, stepsAhead = 0): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret.replaceAll(' ', '')),
    timestamp: Date.now() + stepsAhead * 30_000,
  });
}

test.describe('past the grace (MFA_GRACE_DAYS=0)', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startServer('0');
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test('an administrator without a second factor sets one up at sign-in, by keyboard, then enters', async ({
    page,
  }) => {
    await page.goto(server.url);
    await passwordStep(page);

    // No session yet: the gate shows the set-up, in its look, and nothing of the app.
    const heading = page.getByRole('heading', { name: 'Set up two-step sign-in' });
    await expect(heading).toBeFocused();
    await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
    await expect(page.getByText('Your role requires two-step sign-in.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    expect((await page.request.get(`${server.url}/api/session`)).status()).toBe(401);
    const qr = page.getByRole('img', { name: /QR code of your two-step sign-in secret/ });
    await expect(qr).toBeVisible();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.getByTestId('second-factor-secret').innerText()).trim();
    expect(secret.replaceAll(' ', '')).toMatch(/^[A-Z2-7]{32}$/);
    await expectNoHorizontalOverflow(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({
      path: 'test-results/second-factor-required-enrolment.png',
      fullPage: true,
    });

    // By keyboard: Tab reaches the code field; a wrong code is said and the field keeps focus.
    const code = page.getByLabel('2. Enter the 6-digit code the app shows');
    for (
      let tab = 0;
      tab < 10 && !(await code.evaluate((e) => e === document.activeElement));
      tab++
    ) {
      await page.keyboard.press('Tab');
    }
    await expect(code).toBeFocused();
    await page.keyboard.type('000000' === codeFor(secret) ? '111111' : '000000');
    await page.keyboard.press('Enter');
    await expect(page.getByText('That code is not right. Please try again.')).toBeVisible();
    await expect(code).toBeFocused();
    await page.keyboard.type(codeFor(secret));
    await page.keyboard.press('Enter');

    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({
      path: 'test-results/second-factor-required-recovery-codes.png',
      fullPage: true,
    });
    const recoveryCodes = await codes.allInnerTexts();
    await page.keyboard.press('Tab');
    await expect(
      page.getByRole('button', { name: 'I have saved my recovery codes' }),
    ).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByText('Two-step sign-in required')).toHaveCount(0);

    // From now on the password asks for a code; a recovery code answers it.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await passwordStep(page);
    await expect(page.getByLabel('Verification code')).toBeFocused();
    await page.getByLabel('Verification code').fill(recoveryCodes[0] ?? '');
    await page.getByLabel('Verification code').press('Enter');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  });
});

test.describe('within the grace (the product default: administrators, 7 days)', () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startServer(undefined);
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test('an administrator signs in and is told by when to set up two-step sign-in, then does', async ({
    page,
  }) => {
    await page.goto(server.url);
    await passwordStep(page);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

    // The dashboard says so, with the date seven days on, and does not stand in the way.
    const notice = page.getByRole('status').filter({ hasText: 'Two-step sign-in required' });
    await expect(notice).toContainText(
      'Your role (Administrator) requires two-step sign-in. Set it up by',
    );
    const by = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(
      new Date(Date.now() + 7 * 86_400_000),
    );
    await expect(notice).toContainText(by);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/second-factor-required-notice.png' });

    await notice.getByRole('link', { name: 'Set up two-step sign-in' }).press('Enter');
    await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();

    // Signed in at another page, a notification says it, with the same way to the set-up.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${server.url}/admin/users`);
    await passwordStep(page);
    const reminder = page.getByRole('alert').filter({ hasText: 'Two-step sign-in required' });
    await expect(reminder).toContainText(by);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/second-factor-required-reminder.png' });
    await reminder.getByRole('link', { name: 'Set up two-step sign-in' }).press('Enter');
    await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
    await expect(reminder).toHaveCount(0);
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).press('Enter');
    const secret = (await page.getByTestId('second-factor-secret').innerText()).trim();
    const code = page.getByLabel('2. Enter the 6-digit code the app shows');
    await code.fill(codeFor(secret));
    await code.press('Enter');
    await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();

    // Set up: the notice is gone.
    await page.goto(server.url);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByText('Two-step sign-in required')).toHaveCount(0);
  });
});
