import { expect, test } from '@playwright/test';

test('the built app is served with the product title and footer', async ({ page }) => {
  await page.goto('/');
  await expect(
    page.getByRole('heading', { name: 'Chronic Disease Risk Assessment System' }),
  ).toBeVisible();
  await expect(page.getByText('For authorized healthcare professionals only')).toBeVisible();
  await page.screenshot({ path: 'test-results/smoke.png' });
});

test('client-side routes fall back to the app', async ({ page }) => {
  const response = await page.goto('/assessments/new');
  expect(response?.status()).toBe(200);
  await expect(
    page.getByRole('heading', { name: 'Chronic Disease Risk Assessment System' }),
  ).toBeVisible();
});
