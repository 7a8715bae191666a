import { type Page } from '@playwright/test';
import { signInAsNewUser } from './fixtures.ts';
import { axeViolations, expect, test } from './page-checks.ts';

test.describe.configure({ timeout: 120_000 });

/** DM2 at High (thirst, family history, BMI over 25) and Hyperlipidaemia at Moderate. */
const high = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { smoking: false, familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
};
/** DM2 at Moderate only. */
const moderate = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 60 },
  riskFactors: { smoking: false, familyHistory: { DM2: true } },
};

async function createPatient(page: Page, number: string, name: string): Promise<string> {
  const response = await page.request.post('/api/patients', { data: { number, name } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Saves and signs off an assessment; answers its id and code. */
async function signedOffAssessment(
  page: Page,
  body: object,
  patientId?: string,
): Promise<{ id: string; code: string }> {
  const created = await page.request.post('/api/assessments', {
    data: { ...body, ...(patientId === undefined ? {} : { patientId }) },
  });
  expect(created.status()).toBe(201);
  const { id, code } = (await created.json()) as { id: string; code: string };
  const signed = await page.request.post(`/api/assessments/${id}/sign-off`, {
    headers: { 'if-match': '"1"' },
  });
  expect(signed.status()).toBe(200);
  return { id, code };
}

test('a doctor works through Awaiting Review and is offered the next review', async ({ page }) => {
  await signInAsNewUser(page, 'doctor.worklist', 'doctor', 'Dr Worklist');
  const patientId = await createPatient(page, 'WL-E2E-1', 'Wanda Worklist');
  const first = await signedOffAssessment(page, high, patientId);
  const second = await signedOffAssessment(page, moderate);

  await page.goto('/worklists/review');
  await expect(page.getByRole('heading', { name: 'Awaiting Review', level: 1 })).toBeVisible();
  const rows = page
    .getByRole('region', { name: 'Assessments awaiting review' })
    .locator('tbody tr');
  const firstRow = rows.filter({ hasText: first.code });
  const secondRow = rows.filter({ hasText: second.code });
  await expect(firstRow).toContainText('WL-E2E-1');
  await expect(firstRow).toContainText('Type 2 Diabetes');
  await expect(firstRow).toContainText('High Risk');
  await expect(firstRow).toContainText('Dr Worklist');
  await expect(firstRow).toContainText(/just now|minute/);
  await expect(secondRow).toContainText('No patient');
  await expect(secondRow).toContainText('Moderate Risk');
  // High before Moderate.
  const codes = await rows.locator('td:nth-child(2)').allTextContents();
  expect(codes.indexOf(first.code)).toBeLessThan(codes.indexOf(second.code));

  // The navigation counts them.
  const { total } = (await (await page.request.get('/api/worklists/review?limit=1')).json()) as {
    total: number;
  };
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Awaiting Review' }),
  ).toHaveAccessibleName(`Awaiting Review, ${total}`);
  await page.screenshot({ path: 'test-results/worklists-review.png', fullPage: true });
  expect(await axeViolations(page)).toEqual([]);

  // A row opens straight into doctor review.
  await firstRow.locator('td').first().click();
  await expect(page).toHaveURL(`/assessments/${first.id}/review`);
  await expect(page.getByRole('heading', { name: 'Doctor Review', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Finalize Doctor Review' }).click();
  await page
    .getByRole('dialog', { name: 'Finalize Doctor Review' })
    .getByRole('button', { name: 'Lock Review' })
    .click();
  const next = page.getByRole('button', { name: 'Next review' });
  await expect(next).toBeVisible();
  await page.screenshot({ path: 'test-results/worklists-next-review.png', fullPage: true });

  // The next one is the most urgent left, now that this one has left the list.
  const { items } = (await (await page.request.get('/api/worklists/review?limit=1')).json()) as {
    items: Array<{ assessmentId: string }>;
  };
  expect(items[0]?.assessmentId).not.toBe(first.id);
  await next.click();
  await expect(page).toHaveURL(`/assessments/${items[0]?.assessmentId ?? ''}/review`);
  await expect(page.getByRole('button', { name: 'Finalize Doctor Review' })).toBeEnabled();
});

test('the Awaiting Review count follows sign-offs made elsewhere while the page stays open', async ({
  page,
}) => {
  await page.clock.install();
  await signInAsNewUser(page, 'doctor.badge', 'doctor', 'Dr Badge');
  const badge = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Awaiting Review/ });
  const total = async () =>
    ((await (await page.request.get('/api/worklists/review?limit=1')).json()) as { total: number })
      .total;
  await page.goto('/');
  await expect(badge).toHaveAccessibleName(`Awaiting Review, ${await total()}`);

  // Signed off by someone else: the page learns of it within a minute, without a click.
  await signedOffAssessment(page, high);
  const after = await total();
  await page.clock.fastForward(60_000);
  await expect(badge).toHaveAccessibleName(`Awaiting Review, ${after}`);
});

test('a nurse sees Follow-up Due, and no Awaiting Review', async ({ page }) => {
  await signInAsNewUser(page, 'nurse.worklist', 'nurse', 'Nurse Worklist');
  const patientId = await createPatient(page, 'WL-E2E-2', 'Femi Followup');
  await signedOffAssessment(page, high, patientId);

  const navigation = page.getByRole('navigation', { name: 'Main' });
  await expect(navigation.getByRole('link', { name: 'Follow-up Due' })).toBeVisible();
  await expect(navigation.getByRole('link', { name: /Awaiting Review/ })).toHaveCount(0);
  await navigation.getByRole('link', { name: 'Follow-up Due' }).click();
  // The pointer leaves the link it clicked (axe reads the hovered link's colours otherwise).
  await page.mouse.move(700, 500);
  await expect(page.getByRole('heading', { name: 'Follow-up Due', level: 1 })).toBeVisible();
  await expect(
    page.getByText('Assessments that name no patient cannot be followed up and are not listed.'),
  ).toBeVisible();
  const row = page
    .getByRole('region', { name: 'Patients due for follow-up' })
    .locator('tbody tr')
    .filter({ hasText: 'WL-E2E-2' });
  await expect(row).toContainText('Femi Followup');
  await expect(row).toContainText('due in 30 days');
  await expect(row).toContainText('High Risk');
  await page.screenshot({ path: 'test-results/worklists-follow-up.png', fullPage: true });
  expect(await axeViolations(page)).toEqual([]);

  await row.getByRole('link', { name: 'WL-E2E-2' }).click();
  await expect(page).toHaveURL(`/patients/${patientId}`);

  await page.goto('/worklists/review');
  await expect(page.getByRole('heading', { name: 'Awaiting Review' })).toHaveCount(0);
});
