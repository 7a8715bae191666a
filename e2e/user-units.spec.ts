import { type Page } from '@playwright/test';
import { adminPassword, adminUsername, signIn } from './fixtures.ts';
import { startOwnServer, type OwnServer } from './own-server.ts';
import { expect, test } from './page-checks.ts';

/**
 * A tree of more than one unit makes every new user name their units; the other browser tests
 * create users without naming any, so this one has a server of its own.
 */
let server: OwnServer;
test.beforeAll(async () => {
  server = await startOwnServer({});
});
test.afterAll(async () => {
  await server.stop();
});

interface Unit {
  id: string;
  code: string;
}

async function addUnit(page: Page, code: string, name: string, parentId: string): Promise<Unit> {
  const created = await page.request.post(`${server.url}/api/org-units`, {
    data: { code, name, parentId },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as Unit;
}

function userRow(page: Page, username: string) {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: username, exact: true }) });
}

test('an administrator adds a manager in a second unit, then changes the units', async ({
  page,
}) => {
  const username = 'manager.north';
  await page.goto(server.url);
  await signIn(page, adminUsername, adminPassword);
  const tree = (await (await page.request.get(`${server.url}/api/org-units`)).json()) as {
    items: Unit[];
  };
  const main = tree.items.find((unit) => unit.code === 'MAIN');
  if (main === undefined) throw new Error('The tree has no MAIN unit');
  await addUnit(page, 'NORTH', 'North clinic', main.id);
  const south = await addUnit(page, 'SOUTH', 'South clinic', main.id);
  expect((await page.request.post(`${server.url}/api/org-units/${south.id}/close`)).status()).toBe(
    200,
  );

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  // The first administrator works in the top unit; its name is read out after the code.
  const adminUnits = userRow(page, adminUsername).getByTitle('Main clinic');
  await expect(adminUnits).toHaveText('MAIN (Main clinic)');

  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('User name').fill(username);
  await dialog.getByLabel('Display name').fill('Mina Manager');
  await dialog.getByLabel('Role').selectOption({ label: 'Manager' });
  await dialog
    .getByRole('textbox', { name: 'Password', exact: true })
    .fill('lilac-gravel-summit-oar-84');

  // With two units and more, nothing is chosen for the administrator: the field says so.
  const units = dialog.getByRole('combobox', { name: 'Units' });
  await dialog.getByRole('button', { name: 'Add User' }).click();
  await expect(dialog.getByText('A user works in at least one unit')).toBeVisible();
  await expect(units).toHaveAttribute('aria-invalid', 'true');

  // By keyboard: the closed unit is offered but cannot be taken; NORTH is found by typing.
  await units.focus();
  await page.keyboard.type('SOUTH');
  await expect(page.getByRole('option', { name: 'SOUTH – South clinic (closed)' })).toBeDisabled();
  await units.fill('');
  await page.keyboard.type('NORTH');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('NORTH – North clinic')).toBeVisible();
  await expect(dialog.getByText('A user works in at least one unit')).toBeHidden();
  await expect(units).not.toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Tab');
  await page.screenshot({ path: 'test-results/users-add-with-units.png', fullPage: true });

  await dialog.getByRole('button', { name: 'Add User' }).click();
  await expect(dialog).toBeHidden();
  const row = userRow(page, username);
  await expect(row).toContainText('Manager');
  await expect(row.getByTitle('North clinic')).toHaveText('NORTH (North clinic)');

  // The units are changed: MAIN added, NORTH taken away (Backspace removes the last chosen).
  await page.getByRole('button', { name: `Actions for ${username}` }).click();
  await page.getByRole('menuitem', { name: 'Change name, role or units' }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${username}` });
  const editUnits = edit.getByRole('combobox', { name: 'Units' });
  await editUnits.focus();
  await page.keyboard.press('Backspace');
  await expect(edit.getByText('NORTH – North clinic')).toBeHidden();
  await page.keyboard.type('MAIN');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(edit.getByText('MAIN – Main clinic')).toBeVisible();
  await page.keyboard.press('Tab');

  // A unit the server does not know is refused by the server, and said next to the field.
  await page.route(`${server.url}/api/users/*`, (route) =>
    route.continue({ postData: JSON.stringify({ units: ['no-such-unit'] }) }),
  );
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByText('No unit has the id no-such-unit.')).toBeVisible();
  await expect(editUnits).toHaveAttribute('aria-invalid', 'true');
  await page.unrouteAll();

  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(row.getByTitle('Main clinic')).toHaveText('MAIN (Main clinic)');
  await expect(row.getByTitle('North clinic')).toHaveCount(0);

  // The list is what the server holds.
  await page.reload();
  await expect(userRow(page, username).getByTitle('Main clinic')).toBeVisible();
  await expect(userRow(page, username).getByTitle('North clinic')).toHaveCount(0);
});
