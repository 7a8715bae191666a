import { type Page } from '@playwright/test';
import { adminUsername, signInAsAdmin } from './fixtures.ts';
import { expect, test } from './page-checks.ts';

async function openUsers(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
}

async function chooseAction(page: Page, username: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${username}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('the Users page shows the server refusing to leave no administrator', async ({ page }) => {
  await signInAsAdmin(page);
  await openUsers(page);

  // Giving away one's own admin role: the refusal sits under the Role field.
  await chooseAction(page, adminUsername, 'Change name, role or units');
  const edit = page.getByRole('dialog', { name: `Edit ${adminUsername}` });
  await edit.getByLabel('Role').selectOption({ label: 'Doctor' });
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    edit.getByText('You cannot disable yourself or remove your own admin role.'),
  ).toBeVisible();
  await expect(edit.getByLabel('Role')).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();

  // Disabling oneself: the dialog says why and the account stays active.
  await chooseAction(page, adminUsername, 'Disable account');
  const disable = page.getByRole('dialog', { name: `Disable ${adminUsername}?` });
  await disable.getByRole('button', { name: 'Disable account' }).click();
  await expect(
    disable
      .getByRole('alert')
      .filter({ hasText: 'You cannot disable yourself or remove your own admin role.' }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: adminUsername }) });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Admin');

  // The API answers the same refusal as a 409 naming the field.
  const users = (await (await page.request.get('/api/users')).json()) as {
    items: Array<{ id: string; username: string }>;
  };
  const self = users.items.find((user) => user.username === adminUsername);
  const refused = await page.request.patch(`/api/users/${self?.id ?? ''}`, {
    data: { disabled: true },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ error: { code: 'conflict', field: 'disabled' } });
});
