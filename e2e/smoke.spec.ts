import { expect, test } from '@playwright/test';

test('the built app opens on the access gate with the provider footer', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
  await expect(
    page.getByText('Chronic Disease Risk Assessment System v2.2 · Clinical Guidelines Version 2.2'),
  ).toBeVisible();
  await expect(page.getByText('For authorized healthcare professionals only')).toBeVisible();
  await page.screenshot({ path: 'test-results/smoke.png' });
});

test('client-side routes fall back to the app', async ({ page }) => {
  const response = await page.goto('/assessments/new');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
});
