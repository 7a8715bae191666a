import { adminPassword, adminUsername, signInAsAdmin, signOut } from './fixtures.ts';
import { enterCase1, expectHeading, resultCard, signInAsNurse } from './assessment-fixtures.ts';
import { expect, test } from './page-checks.ts';

test.describe.configure({ timeout: 90_000 });

const trial = '2.0-dm2-bmi-0.25';
const trialLabel = `Trial: DM2 BMI weight 0.25 (not the default guidelines) (version ${trial})`;

// The server is shared by every spec: the default is active again after this one.
test.afterEach(async ({ request }) => {
  const signedIn = await request.post('/api/session', {
    data: { username: adminUsername, password: adminPassword },
  });
  expect(signedIn.status()).toBe(200);
  const restored = await request.put('/api/rule-sets/active', { data: { version: '2.0' } });
  expect(restored.status()).toBe(200);
});

test("the wizard's live results and the save score with the active rule set", async ({ page }) => {
  await signInAsAdmin(page);
  const activated = await page.request.put('/api/rule-sets/active', { data: { version: trial } });
  expect(activated.status()).toBe(200);
  await signOut(page);

  await signInAsNurse(page);
  await page.goto('/assessments/new');
  await expectHeading(page, 'Patient Demographics');
  await enterCase1(page);

  // SCORING.md case 1 with DM2's BMI factor weighing 0.25 instead of 0.75: 8.3625 - 0.5.
  await expectHeading(page, 'Results');
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toContainText('Results calculated from the current answers');
  await expect(summary).toContainText(`Scored with ${trialLabel}.`);
  await expect(summary).toContainText('Total score19.9625');
  const dm2 = resultCard(page, 'Type 2 Diabetes');
  await expect(dm2).toContainText('Total score7.8625');
  await expect(dm2).toContainText('High Risk');

  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText('Assessment saved successfully!')).toBeVisible();
  await page.reload();
  await expect(summary).toContainText('Results as saved on the server');
  await expect(summary).toContainText(`Scored with ${trialLabel}.`);
  await expect(dm2).toContainText('Total score7.8625');
});
