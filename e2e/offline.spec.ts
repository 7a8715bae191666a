import type { BrowserContext, Page } from '@playwright/test';
import {
  enterCase1,
  expectCase1Results,
  expectHeading,
  nurse,
  signInAsNurse,
} from './assessment-fixtures.ts';
import { adminPassword, adminUsername, signIn, unlockDevice } from './fixtures.ts';
import { expect, test, waitForInstalledApp } from './page-checks.ts';

const needsConnection = 'This needs a connection to the server. You are offline.';
const codePattern = /ASS-[0-9A-Z]+-[0-9A-Z]{4}/;

// Each test enters a whole assessment and derives the outbox key from a password (PBKDF2) or two.
test.describe.configure({ timeout: 90_000 });

/** Enters SCORING.md case 1 from a new assessment to its live results; returns its code. */
async function completeCase1(page: Page): Promise<string> {
  // In the app, not a new page load: a page load locks what the device keeps until the password.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('link', { name: 'Start New Assessment' }).click();
  await expectHeading(page, 'Patient Demographics');
  const code = codePattern.exec((await page.getByText(codePattern).first().textContent()) ?? '');
  expect(code).not.toBeNull();
  await enterCase1(page);
  await expectHeading(page, 'Results');
  await expectCase1Results(page);
  return code?.[0] ?? '';
}

async function serverCopies(context: BrowserContext, code: string): Promise<number> {
  const response = await context.request.get(`/api/assessments?q=${encodeURIComponent(code)}`);
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: { code: string | null }[] };
  return items.filter((item) => item.code === code).length;
}

function waitingList(page: Page) {
  return page.getByRole('region', { name: /Waiting to upload/ });
}

test('an assessment saved offline waits through a reload and uploads once when back online', async ({
  page,
  context,
}) => {
  await signInAsNurse(page);
  await waitForInstalledApp(page);
  await context.setOffline(true);

  // The app opens with no network, and the wizard scores live with the kept rule set.
  const code = await completeCase1(page);
  await page.getByRole('textbox', { name: 'Clinical Notes' }).fill('Saved without a network.');
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText(/kept on this device/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(waitingList(page).getByText(code)).toBeVisible();
  await expect(waitingList(page).getByText('Waiting to upload', { exact: true })).toBeVisible();
  await expect(page.getByTestId('outbox-badge')).toHaveText('1 to upload');
  await expect(page.getByText('Offline', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/The history comes from the server/)).toBeVisible();

  // After a reload the key rests wrapped under the password: the list says how many wait, sealed,
  // until the nurse types her password, with no server to ask.
  await page.reload();
  await expect(waitingList(page).getByText(code)).toHaveCount(0);
  await expect(waitingList(page).getByText('An assessment waits here to upload.')).toBeVisible();
  await unlockDevice(page, 'not her password');
  await expect(
    page.getByText('This password does not open what is kept on this device.'),
  ).toBeVisible();
  await unlockDevice(page, nurse.password);
  await expect(waitingList(page).getByText(code)).toBeVisible();
  await page.screenshot({ path: 'test-results/offline-waiting.png', fullPage: true });

  await page.getByRole('link', { name: 'Follow-up Due' }).click();
  await expect(page.getByText(needsConnection)).toBeVisible();
  await page.getByRole('link', { name: 'Dashboard' }).click();

  // Signing out with a save waiting asks first, naming it.
  await page.getByRole('button', { name: 'Sign out' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assessments are waiting to upload' });
  await expect(dialog.getByText(code)).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(dialog).toHaveCount(0);

  await context.setOffline(false);
  await expect(page.getByText('An assessment saved offline was uploaded.')).toBeVisible();
  await expect(waitingList(page)).toHaveCount(0);
  await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
  expect(await serverCopies(context, code)).toBe(1);
  // Coming back online again sends nothing twice.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await serverCopies(context, code)).toBe(1);
});

test.describe('before the service worker has stored the app', () => {
  test.use({ serviceWorkers: 'block' });

  test('a save that meets a dropped network still waits in the outbox', async ({
    page,
    context,
  }) => {
    await signInAsNurse(page);
    const code = await completeCase1(page);
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Save Assessment' }).click();
    await expect(page.getByText(/will upload by itself/).first()).toBeVisible();
    await expect(page.getByText('The assessment could not be kept on this device.')).toHaveCount(0);
    await expect(waitingList(page).getByText(code)).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByText('An assessment saved offline was uploaded.')).toBeVisible();
    expect(await serverCopies(context, code)).toBe(1);
  });
});

test("an update the server refuses stays with the server's reason until discarded", async ({
  page,
  context,
}) => {
  await signInAsNurse(page);
  await waitForInstalledApp(page);
  const code = await completeCase1(page);
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page).toHaveURL(/\/assessments\/[0-9a-f-]{36}\?step=5$/);
  const id = /assessments\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
  // Someone changes it meanwhile: the version this page holds is now stale.
  const stored = (await (await context.request.get(`/api/assessments/${id}`)).json()) as {
    version: number;
  };
  const changed = await context.request.post(`/api/assessments/${id}/sign-off`, {
    headers: { 'if-match': `"${stored.version}"` },
  });
  expect(changed.status()).toBe(200);

  await context.setOffline(true);
  // What needs the server says so and is disabled.
  await expect(page.getByRole('button', { name: 'Sign Off Results' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Download Report' })).toBeDisabled();
  await expect(page.getByText(needsConnection)).toBeVisible();
  await page.getByRole('textbox', { name: 'Clinical Notes' }).fill('Changed offline.');
  await page.getByRole('button', { name: 'Update Assessment' }).click();
  await expect(waitingList(page).getByText(code)).toBeVisible();

  await context.setOffline(false);
  const refused = waitingList(page).getByRole('listitem').filter({ hasText: code });
  await expect(refused.getByText('Not accepted by the server')).toBeVisible();
  // The server's reason, as it gave it.
  await expect(refused).toContainText('Cannot update signed-off assessment');
  await page.reload();
  await unlockDevice(page, nurse.password);
  await expect(refused.getByText('Not accepted by the server')).toBeVisible();
  await expect(page.getByTestId('outbox-badge')).toHaveText('1 to upload');
  await page.screenshot({ path: 'test-results/offline-refused.png', fullPage: true });

  await refused.getByRole('button', { name: 'Discard' }).click();
  const confirm = page.getByRole('dialog', { name: 'Discard this assessment?' });
  await confirm.getByRole('button', { name: 'Discard' }).click();
  await expect(waitingList(page)).toHaveCount(0);
});

test('a session that ends offline keeps the outbox for the same user only', async ({
  page,
  context,
}) => {
  await signInAsNurse(page);
  await waitForInstalledApp(page);
  await context.setOffline(true);
  const code = await completeCase1(page);
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(waitingList(page).getByText(code)).toBeVisible();

  // The session ends while offline; back online, the upload is refused with 401 and waits.
  await context.clearCookies();
  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();

  // Another user on the same browser neither sees nor sends it.
  await signIn(page, adminUsername, adminPassword);
  await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
  await expect(waitingList(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await serverCopies(context, code)).toBe(0);
  await page.getByRole('button', { name: 'Sign out' }).click();

  // The same user, signed in again, sends it.
  await signIn(page, nurse.username, nurse.password);
  await expect(page.getByText('An assessment saved offline was uploaded.')).toBeVisible();
  expect(await serverCopies(context, code)).toBe(1);
});

test('signing out offline shows the gate at once, keeps the outbox, and ends the server session when back', async ({
  page,
  context,
}) => {
  await signInAsNurse(page);
  await waitForInstalledApp(page);
  await context.setOffline(true);
  const code = await completeCase1(page);
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(waitingList(page).getByText(code)).toBeVisible();

  // The confirmation still names what waits; signing out needs no server.
  await page.getByRole('button', { name: 'Sign out' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assessments are waiting to upload' });
  await expect(dialog.getByText(code)).toBeVisible();
  await dialog.getByRole('button', { name: 'Sign out anyway' }).click();
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
  await expect(page.getByText('Sign out failed')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/offline-signed-out.png', fullPage: true });
  // A reload offline stays at the gate: the device does not sign the user back in.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();

  // Back online, the server's session ends by itself, and a reload does not sign in again.
  await context.setOffline(false);
  await expect.poll(async () => (await context.request.get('/api/session')).status()).toBe(401);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();

  // The same user, signed in again, sends what waited.
  await signIn(page, nurse.username, nurse.password);
  await expect(page.getByText('An assessment saved offline was uploaded.')).toBeVisible();
  expect(await serverCopies(context, code)).toBe(1);
});
