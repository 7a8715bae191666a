import { type Page } from '@playwright/test';
import { signInAsAdmin } from './fixtures.ts';
import { expect, test } from './page-checks.ts';

const viewports = [
  { name: 'wide', width: 1366, height: 768 },
  { name: 'narrow', width: 390, height: 844 },
];

/** Nothing may make the whole page scroll sideways; wide tables scroll inside their own box. */
async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  expect(overflow).toBe(0);
}

for (const viewport of viewports) {
  test(`gate, shell, Users and Audit Trail fit a ${viewport.width}x${viewport.height} screen`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `test-results/gate-${viewport.name}.png` });

    await signInAsAdmin(page);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `test-results/shell-${viewport.name}.png` });
    const menuButton = page.getByRole('button', { name: 'Navigation' });
    if (await menuButton.isVisible()) {
      await expect(page.getByRole('link', { name: 'Audit Trail' })).toBeHidden();
      await menuButton.click();
      const navigation = page.getByRole('navigation', { name: 'Main' });
      await expect(navigation.getByRole('link', { name: 'Audit Trail' })).toBeVisible();
      await expect(navigation.getByText('Administrator')).toBeVisible();
      // Wait for the slide-in to finish before taking the picture.
      await expect.poll(async () => (await navigation.boundingBox())?.x).toBe(0);
      await page.screenshot({ path: `test-results/shell-${viewport.name}-navigation.png` });
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await expect(page.getByRole('link', { name: 'Audit Trail' })).toBeHidden();
    }

    await page.goto('/admin/users');
    await expect(page.getByRole('table')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `test-results/users-${viewport.name}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await expect(dialog.getByText('Passwords are at least 12 characters')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `test-results/users-add-${viewport.name}.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await page.goto('/admin/audit');
    await expect(page.getByRole('table')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `test-results/audit-${viewport.name}.png`, fullPage: true });
  });
}
