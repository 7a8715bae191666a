import { type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { signInAsNewUser, signOut } from './fixtures.ts';
import { axeViolations, expect, expectNoHorizontalOverflow, test } from './page-checks.ts';

/** The password signInAsNewUser gives the users it creates. */
const password = 'amber-falcon-harbour-tide-62';
const username = 'doctor-two-step';

/** The code an authenticator app shows for the secret, `stepsAhead` time steps from now. */
function codeFor(secret: string, stepsAhead = 0): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret.replaceAll(' ', '')),
    timestamp: Date.now() + stepsAhead * 30_000,
  });
}

/** The password step of a user with a second factor: the gate then asks for the code. */
async function passwordStep(page: Page) {
  await page.getByLabel('User name').fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Access System' }).click();
  await expect(page.getByLabel('Verification code')).toBeFocused();
}

test('two-step sign-in: enrolment from the user menu, then sign-in with a code and with a recovery code once', async ({
  page,
}) => {
  await signInAsNewUser(page, username, 'doctor', 'Dr Two Step');

  // The user menu opens from the user's name, by keyboard.
  const menu = page.getByRole('button', { name: 'Dr Two Step, Doctor: user menu' });
  await menu.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Two-step sign-in' }).press('Enter');
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await expect(page.getByText('Two-step sign-in is off.')).toBeVisible();

  await page.getByRole('button', { name: 'Set up two-step sign-in' }).press('Enter');
  const qr = page.getByRole('img', { name: /QR code of your two-step sign-in secret/ });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  const secret = (await page.getByTestId('second-factor-secret').innerText()).trim();
  expect(secret.replaceAll(' ', '')).toMatch(/^[A-Z2-7]{32}$/);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/second-factor-enrolment.png', fullPage: true });

  const code = page.getByLabel('2. Enter the 6-digit code the app shows');
  await code.fill('000000' === codeFor(secret) ? '111111' : '000000');
  await code.press('Enter');
  await expect(page.getByText('That code is not right. Please try again.')).toBeVisible();
  await expect(code).toBeFocused();
  await code.fill(codeFor(secret));
  await code.press('Enter');

  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allInnerTexts();
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/second-factor-recovery-codes.png', fullPage: true });
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(page.getByText('10 of 10 recovery codes are left.')).toBeVisible();
  await signOut(page);

  // The password alone no longer signs in: the gate asks for the code, in the gate's look.
  await passwordStep(page);
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
  await expect(
    page.getByText(
      'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/second-factor-gate.png', fullPage: true });
  // The code confirmed at enrolment is used; the app's next one is accepted (a step of leeway).
  await page.getByLabel('Verification code').fill(codeFor(secret, 1));
  await page.getByLabel('Verification code').press('Enter');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await signOut(page);

  // A recovery code works once.
  const [recoveryCode = ''] = recoveryCodes;
  await passwordStep(page);
  await page.getByLabel('Verification code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await signOut(page);

  await passwordStep(page);
  await page.getByLabel('Verification code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('That code is not right. Please try again.')).toBeVisible();
  await expect(page.getByLabel('Verification code')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

  // 'Back to password' returns to the first step.
  await page.getByRole('button', { name: 'Back to password' }).click();
  await expect(page.getByRole('button', { name: 'Access System' })).toBeVisible();
  await passwordStep(page);
});

test('on a phone the Two-step sign-in page is in the navigation and fits the screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsNewUser(page, 'nurse-two-step-phone', 'nurse');
  await page.getByRole('button', { name: 'Navigation' }).click();
  await page.getByRole('link', { name: 'Two-step sign-in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/second-factor-phone.png', fullPage: true });
});
