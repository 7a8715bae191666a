import { type Page } from '@playwright/test';
import { signIn, signInAsAdmin, signOut } from './fixtures.ts';
import { expect, test } from './page-checks.ts';

async function openUsers(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
}

async function addUser(
  page: Page,
  user: { username: string; displayName: string; role: string; password: string },
) {
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('User name').fill(user.username);
  await dialog.getByLabel('Display name').fill(user.displayName);
  await dialog.getByLabel('Role').selectOption({ label: user.role });
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Add User' }).click();
  return dialog;
}

function userRow(page: Page, username: string) {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: username, exact: true }) });
}

async function chooseAction(page: Page, username: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${username}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('an admin creates a nurse, who then sees no admin views', async ({ page }) => {
  const nurse = {
    username: 'nurse.e2e',
    displayName: 'Nora Nurse',
    role: 'Nurse',
    password: 'quiet-willow-river-stone-18',
  };
  await signInAsAdmin(page);
  await openUsers(page);

  // The server refuses a password that contains the user name and names the field.
  const dialog = await addUser(page, { ...nurse, password: 'nurse.e2e-is-my-password' });
  const passwordField = dialog.getByRole('textbox', { name: 'Password', exact: true });
  await expect(dialog.getByText('The password must not contain the user name')).toBeVisible();
  await expect(passwordField).toHaveAttribute('aria-invalid', 'true');
  // The tree has one unit: every user works in it, and there is nothing to choose.
  const unitsField = dialog.getByRole('textbox', { name: 'Units' });
  await expect(unitsField).toHaveValue('MAIN – Main clinic');
  await expect(unitsField).toHaveAttribute('readonly');
  await page.screenshot({ path: 'test-results/users-add-one-unit.png' });

  await passwordField.fill(nurse.password);
  await dialog.getByRole('button', { name: 'Add User' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('User nurse.e2e created.')).toBeVisible();
  const row = userRow(page, nurse.username);
  await expect(row).toContainText('Nora Nurse');
  await expect(row).toContainText('Nurse');
  await expect(row).toContainText('Active');
  await expect(row.getByTitle('Main clinic')).toHaveText('MAIN (Main clinic)');

  await signOut(page);
  await signIn(page, nurse.username, nurse.password);
  // Signing out went back to the start, so the nurse does not land on the admin's last page.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('banner').getByText('Nora Nurse')).toBeVisible();
  const navigation = page.getByRole('navigation', { name: 'Main' });
  await expect(navigation.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(navigation.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(navigation.getByRole('link', { name: 'Audit Trail' })).toHaveCount(0);

  for (const path of ['/admin/users', '/admin/audit']) {
    await page.goto(path);
    await expect(page.getByText('You do not have permission to view this page.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
  }
});

test('client-side checks name the field before anything is sent', async ({ page }) => {
  await signInAsAdmin(page);
  await openUsers(page);
  const dialog = await addUser(page, {
    username: 'x',
    displayName: '',
    role: 'Doctor',
    password: 'short',
  });
  await expect(
    dialog.getByText('User names are 2 to 64 letters, digits, dots, dashes or underscores'),
  ).toBeVisible();
  await expect(dialog.getByText('Passwords are at least 12 characters')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(userRow(page, 'x')).toHaveCount(0);
});

test('an admin changes a role, resets a password, disables and enables an account', async ({
  page,
}) => {
  const username = 'clerk.e2e';
  const newPassword = 'bright-canyon-pepper-mill-63';
  await signInAsAdmin(page);
  await openUsers(page);
  const addDialog = await addUser(page, {
    username,
    displayName: 'Casey Clerk',
    role: 'Doctor',
    password: 'first-orchard-violet-tide-29',
  });
  await expect(addDialog).toBeHidden();
  const row = userRow(page, username);
  await expect(row).toContainText('Doctor');

  await chooseAction(page, username, 'Change name, role or units');
  const editDialog = page.getByRole('dialog', { name: `Edit ${username}` });
  await editDialog.getByLabel('Role').selectOption({ label: 'Nurse' });
  await editDialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(editDialog).toBeHidden();
  await expect(row).toContainText('Nurse');

  await chooseAction(page, username, 'Reset password');
  const passwordDialog = page.getByRole('dialog', { name: `Reset password for ${username}` });
  await passwordDialog
    .getByRole('textbox', { name: 'New password', exact: true })
    .fill(newPassword);
  await passwordDialog.getByRole('button', { name: 'Reset password' }).click();
  await expect(passwordDialog).toBeHidden();
  await expect(page.getByText(`Password reset for ${username}.`)).toBeVisible();

  await chooseAction(page, username, 'Disable account');
  const disableDialog = page.getByRole('dialog', { name: `Disable ${username}?` });
  await disableDialog.getByRole('button', { name: 'Disable account' }).click();
  await expect(disableDialog).toBeHidden();
  await expect(row).toContainText('Disabled');

  await chooseAction(page, username, 'Enable account');
  await expect(row).toContainText('Active');

  // The list is what the server holds, not only what this page remembers.
  await page.reload();
  await expect(userRow(page, username)).toContainText('Nurse');
  await expect(userRow(page, username)).toContainText('Active');

  await signOut(page);
  await signIn(page, username, newPassword);
  await expect(page.getByRole('banner').getByText('Casey Clerk')).toBeVisible();
});
