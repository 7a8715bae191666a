import type { Page } from '@playwright/test';
import {
  startTestOidcProvider,
  type TestOidcProvider,
} from '../src/server/testing/oidc-provider.ts';
import { Secret, TOTP } from 'otpauth';
import { freePort, startOwnServer, type OwnServer } from './own-server.ts';
import { expect, test } from './page-checks.ts';

const gateTitle = { name: 'Secure Access Required' };

/**
 * A real OpenID Connect provider (oidc-provider) in the test's process, and a server of the
 * test's own pointed at it; the provider's login page asks for the subject to sign in as.
 */
test.describe('sign-in through the organisation', () => {
  let provider: TestOidcProvider;
  let server: OwnServer;
  test.beforeAll(async () => {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    provider = await startTestOidcProvider(appUrl);
    provider.setAccount({
      sub: 'a7f3-nurse',
      claims: { preferred_username: 'amara.k', name: 'Amara Kone', roles: ['clinic-nurse'] },
    });
    provider.setAccount({
      sub: 'b8e4-visitor',
      claims: { preferred_username: 'visitor', roles: ['guests'] },
    });
    server = await startOwnServer({
      PORT: String(port),
      ...provider.env(appUrl),
      OIDC_DISPLAY_NAME: 'Test Health Service',
    });
  });
  test.afterAll(async () => {
    await server.stop();
    await provider.close();
  });

  test("the gate, the provider's login page, back signed in, then signed out there too", async ({
    page,
  }) => {
    await page.goto(server.url);
    await expect(page.getByRole('heading', gateTitle)).toBeVisible();
    // The provider's button sits above the password form, which stays (LOCAL_SIGN_IN is on).
    const button = page.getByRole('button', { name: 'Sign in with Test Health Service' });
    await expect(page.getByRole('button', { name: 'Access System' })).toBeVisible();
    await button.click();

    await expect(page.getByRole('heading', { name: 'Test provider sign-in' })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    await page.getByLabel('Subject').fill('a7f3-nurse');
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(server.url);
    await expect(page.getByText('Amara Kone').first()).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(
      page.getByRole('heading', { name: 'Sign out of the test provider?' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await expect(page.getByRole('heading', gateTitle)).toBeVisible();
    expect(new URL(page.url()).origin).toBe(server.url);
    // Signed out here as well: a reload stays at the gate.
    await page.reload();
    await expect(page.getByRole('heading', gateTitle)).toBeVisible();
  });

  test('a subject with no role comes back to the gate with the sentence, not an error page', async ({
    page,
  }) => {
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Sign in with Test Health Service' }).click();
    await page.getByLabel('Subject').fill('b8e4-visitor');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', gateTitle)).toBeVisible();
    await expect(
      page.getByText('Your account has no role in this system. Ask your administrator.'),
    ).toBeVisible();
    // The reason is read once: the address no longer carries it.
    await expect(page).toHaveURL(`${server.url}/`);
  });
});

test.describe('passwords off (LOCAL_SIGN_IN=false), administrators needing a second factor', () => {
  let provider: TestOidcProvider;
  let server: OwnServer;
  test.beforeAll(async () => {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    provider = await startTestOidcProvider(appUrl);
    provider.setAccount({
      sub: 'c9d5-admin',
      claims: { preferred_username: 'it.admin', name: 'Ines Admin', roles: ['triage-admin'] },
      amr: ['pwd'],
    });
    provider.setAccount({
      sub: 'd0e6-admin-mfa',
      claims: { preferred_username: 'mfa.admin', name: 'Moses Admin', roles: ['triage-admin'] },
      amr: ['pwd', 'mfa'],
    });
    server = await startOwnServer({
      PORT: String(port),
      ...provider.env(appUrl),
      LOCAL_SIGN_IN: 'false',
      MFA_REQUIRED_ROLES: undefined,
      MFA_GRACE_DAYS: '0',
    });
  });
  test.afterAll(async () => {
    await server.stop();
    await provider.close();
  });

  async function signInAtProvider(page: Page, sub: string) {
    await page.goto(server.url);
    await expect(page.getByRole('heading', gateTitle)).toBeVisible();
    // No password form: the provider's button alone.
    await expect(page.getByLabel('User name')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Access System' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
    await page.getByLabel('Subject').fill(sub);
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  test("an admin whose provider did a second factor goes straight in; one whose didn't sets up the local one", async ({
    page,
  }) => {
    await signInAtProvider(page, 'd0e6-admin-mfa');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await expect(page.getByRole('heading', gateTitle)).toBeVisible();

    await signInAtProvider(page, 'c9d5-admin');
    await expect(page.getByRole('heading', { name: 'Set up two-step sign-in' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    const secret = (await page.getByTestId('second-factor-secret').innerText()).replaceAll(' ', '');
    await page
      .getByLabel('2. Enter the 6-digit code the app shows')
      .fill(TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() }));
    await page.getByLabel('2. Enter the 6-digit code the app shows').press('Enter');
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  });
});
