import { signInAsAdmin } from './fixtures.ts';
import { expect, test } from './page-checks.ts';

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

test('the app keeps to its content security policy and logs no error as it opens', async ({
  page,
}) => {
  // Signed out, the session check's 401 is logged by the browser itself; it is expected there.
  await signInAsAdmin(page);
  const violations: string[] = [];
  const errors: string[] = [];
  await page.exposeFunction('reportViolation', (directive: string) => violations.push(directive));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      void (
        window as unknown as { reportViolation: (directive: string) => Promise<void> }
      ).reportViolation(event.violatedDirective);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Assessment History' })).toBeVisible();
  await page.goto('/assessments/new');
  await expect(page.getByRole('heading', { name: 'Patient Demographics' })).toBeVisible();
  await expect(page.getByLabel('Age')).toBeVisible();

  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
});
