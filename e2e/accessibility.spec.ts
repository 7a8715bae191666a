import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInAsAdmin } from './fixtures.ts';
import { animationsFinished } from './page-checks.ts';

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function violations(page: Page) {
  await animationsFinished(page);
  const results = await new AxeBuilder({ page }).withTags(wcagTags).analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

// Narrow screens change the layout (collapsed navigation, tables that scroll sideways).
for (const viewport of [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('the access gate has no WCAG A or AA violations', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
      expect(await violations(page)).toEqual([]);

      // The refused state adds an alert and an emptied field.
      await page.getByLabel('User name').fill('nobody.axe');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password');
      await page.getByRole('button', { name: 'Access System' }).click();
      await expect(page.getByText('Incorrect password. Please try again.')).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });

    test('the Users page and its Add User dialog have no WCAG A or AA violations', async ({
      page,
    }) => {
      await signInAsAdmin(page);
      await page.goto('/admin/users');
      await expect(page.getByRole('table')).toBeVisible();
      expect(await violations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Add User' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add User' });
      await dialog.getByRole('button', { name: 'Add User' }).click();
      await expect(dialog.getByText('Passwords are at least 12 characters')).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });

    test('the Audit Trail page has no WCAG A or AA violations', async ({ page }) => {
      await signInAsAdmin(page);
      await page.goto('/admin/audit');
      await expect(page.getByRole('table')).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });
  });
}
