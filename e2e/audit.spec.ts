import { type Page } from '@playwright/test';
import {
  adminPassword,
  adminUsername,
  signIn,
  signInAsAdmin,
  signInAsNewUser,
  signOut,
} from './fixtures.ts';
import { expect, test } from './page-checks.ts';

function rowsWithAction(page: Page, action: string) {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: action, exact: true }) });
}

test('the audit trail lists sign-ins, filters them and links the same filters as CSV', async ({
  page,
}) => {
  // A sign-in, a sign-out and another sign-in: the unfiltered trail holds more than logins.
  await signInAsAdmin(page);
  await signOut(page);
  await signIn(page, adminUsername, adminPassword);
  await page.getByRole('link', { name: 'Audit Trail' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Trail' })).toBeVisible();

  await expect(rowsWithAction(page, 'Login').first()).toContainText(adminUsername);
  await expect(rowsWithAction(page, 'Login').first()).toContainText('Success');
  await expect(rowsWithAction(page, 'Logout').first()).toContainText(adminUsername);

  await page.getByLabel('Action').selectOption({ label: 'Login' });
  await page.getByLabel('User name').fill(adminUsername);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/action=login/);
  const bodyRows = page.getByRole('rowgroup').nth(1).getByRole('row');
  // Retried until the filtered trail has replaced the unfiltered one, which had a logout.
  await expect(
    bodyRows.filter({ hasNot: page.getByRole('cell', { name: 'Login', exact: true }) }),
  ).toHaveCount(0);
  await expect(bodyRows.first()).toContainText(adminUsername);

  const csvLink = page.getByRole('link', { name: 'Download CSV' });
  const href = await csvLink.getAttribute('href');
  expect(href).toBe(`/api/audit.csv?user=${adminUsername}&action=login`);
  const csv = await (await page.request.get(href ?? '')).text();
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toContain('action');
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).every((line) => line.includes(',login,'))).toBe(true);
});

test('load more pages backwards through a long trail', async ({ page }) => {
  await signInAsAdmin(page);
  // Display-name changes are cheap audit events; 60 of them outrun one page of 50. They go to a
  // user of this test's own so that other tests keep their names.
  const created = await page.request.post('/api/users', {
    data: { username: 'audit.pager', role: 'nurse', password: 'pale-thistle-comet-basin-55' },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  for (let n = 1; n <= 60; n += 1) {
    const response = await page.request.patch(`/api/users/${id}`, {
      data: { displayName: `Pager ${n}` },
    });
    expect(response.ok()).toBe(true);
  }

  await page.goto('/admin/audit?action=user_update');
  const bodyRows = page.getByRole('rowgroup').nth(1).getByRole('row');
  await expect(bodyRows).toHaveCount(50);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(bodyRows).not.toHaveCount(50);
  const total = await bodyRows.count();
  expect(total).toBeGreaterThanOrEqual(60);
  await expect(page.getByText(`${total} events shown; this is the whole trail`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});

test("each event shows the user's display name above the user name", async ({ page }) => {
  await signInAsNewUser(page, 'audit.display', 'nurse', 'Dana Display');
  await signOut(page);
  await signInAsAdmin(page);
  await page.goto('/admin/audit?user=audit.display&action=login');
  const login = rowsWithAction(page, 'Login').first();
  await expect(login.getByRole('cell').nth(1)).toHaveText('Dana Displayaudit.display');
  await expect(login.getByText('Dana Display', { exact: true })).toBeVisible();
  await expect(login.getByText('audit.display', { exact: true })).toBeVisible();
});

test("a refused record system's call shows why it was refused", async ({ page }) => {
  await signInAsAdmin(page);
  // A token that names an issuer no CDS client is registered for; it is not even signed.
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const token = `${part({ alg: 'RS384', typ: 'JWT' })}.${part({ iss: 'https://ehr.unknown.test' })}.c2ln`;
  const refused = await page.request.post('/cds-services/chronic-disease-risk', {
    headers: { authorization: `Bearer ${token}` },
    data: {},
  });
  expect(refused.status()).toBe(401);

  await page.getByRole('link', { name: 'Audit Trail' }).click();
  await page.getByLabel('Action').selectOption({ label: 'CDS call' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const row = rowsWithAction(page, 'CDS call').first();
  await expect(row).toContainText('Failure');
  await expect(row).toContainText('claimed iss https://ehr.unknown.test');
});
