import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { signIn, signInAsAdmin, signOut } from './fixtures.ts';
import { animationsFinished } from './page-checks.ts';

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe-core's WCAG 2.2 A and AA violations on the page as it is now. */
export async function wcagViolations(page: Page) {
  await animationsFinished(page);
  const results = await new AxeBuilder({ page }).withTags(wcagTags).analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    help: violation.help,
    nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
  }));
}

export const nurse = {
  username: 'nurse.wizard',
  displayName: 'Nina Wizard',
  password: 'amber-falcon-orchard-tide-62',
};

/** Creates the nurse through the Users API as the admin (once per server), then signs in as her. */
export async function signInAsNurse(page: Page): Promise<void> {
  await signInAsAdmin(page);
  const response = await page.request.post('/api/users', {
    data: {
      username: nurse.username,
      displayName: nurse.displayName,
      role: 'nurse',
      password: nurse.password,
    },
  });
  // 409: an earlier test of this run already created her.
  expect([201, 409]).toContain(response.status());
  await signOut(page);
  await signIn(page, nurse.username, nurse.password);
}

export function stepButton(page: Page, title: string): Locator {
  return page
    .getByRole('navigation', { name: 'Assessment steps' })
    .getByRole('button', { name: new RegExp(`^Step \\d: ${title}`) });
}

export function question(page: Page | Locator, label: string): Locator {
  return page.getByRole('radiogroup', { name: label, exact: true });
}

export async function answer(page: Page | Locator, label: string, choice: string): Promise<void> {
  await question(page, label).getByRole('radio', { name: choice, exact: true }).check();
}

export async function expectHeading(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/**
 * docs/SCORING.md, worked case 1: complete demographics. The only case a nurse can enter in full,
 * since the wizard asks for all four demographic fields before step 2.
 */
export const case1 = {
  bmi: '29.4',
  total: '20.4625',
  conditions: [
    { name: 'Type 2 Diabetes', status: 'High Risk', score: '8.3625', factors: '5 / 2' },
    { name: 'HIV', status: 'Moderate Risk', score: '1.7000', factors: '2 / 2' },
    { name: 'TB', status: 'Low Risk', score: '1.4000', factors: '1 / 2' },
    { name: 'Asthma', status: 'Low Risk', score: '0.0000', factors: '0 / 2' },
    { name: 'Hypertension', status: 'Diagnosed', score: '4.8000', factors: '2 / 3' },
    { name: 'Hyperlipidaemia', status: 'High Risk', score: '4.2000', factors: '2 / 1' },
  ],
  attention: ['Type 2 Diabetes', 'HIV', 'Hypertension', 'Hyperlipidaemia'],
};

export async function enterCase1Demographics(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: 'Age' }).fill('58');
  await answer(page, 'Gender', 'Female');
  await page.getByRole('textbox', { name: 'Height (cm)' }).fill('165');
  await page.getByRole('textbox', { name: 'Weight (kg)' }).fill('80');
}

export async function enterCase1RiskFactors(page: Page): Promise<void> {
  await answer(page, 'Smoking (current or within 5 years)', 'No');
  await answer(page, 'Family history of Type 2 Diabetes', 'Yes');
  await answer(page, 'Family history of Asthma', 'No');
  await answer(page, 'Family history of Hypertension', 'Yes');
  await answer(page, 'Family history of Hyperlipidaemia', 'Yes');
  await answer(page, 'Household TB exposure', 'No');
}

/** Answers the symptoms of case 1, one condition at a time, ending on Hyperlipidaemia. */
export async function enterCase1Symptoms(page: Page): Promise<void> {
  const next = page.getByRole('button', { name: 'Next Condition' });
  await expect(page.getByText('Step 1 of 6')).toBeVisible();
  await answer(page, 'Fatigue', 'No');
  await answer(page, 'Increased Thirst', 'Yes');
  await answer(page, 'Increased Thirst severity', 'Moderate');
  await answer(page, 'Frequent Urination', 'Yes');
  await next.click();

  await expect(page.getByText('Step 2 of 6')).toBeVisible();
  await answer(page, 'Weight change', 'Yes');
  await answer(page, 'Loss or gain', 'Weight Gain');
  await answer(page, 'Fever', 'Yes');
  await answer(page, 'Fever severity', 'Mild');
  await next.click();

  await expect(page.getByText('Step 3 of 6')).toBeVisible();
  await answer(page, 'Night Sweats', 'Yes');
  await answer(page, 'Night Sweats severity', 'Severe');
  await next.click();

  await expect(page.getByText('Step 4 of 6')).toBeVisible();
  await answer(page, 'Cough (on and off)', 'No');
  await answer(page, 'Wheezing', 'No');
  await next.click();

  await expect(page.getByText('Step 5 of 6')).toBeVisible();
  await answer(page, 'Headache', 'Yes');
  await answer(page, 'Headache severity', 'Severe');
  await next.click();

  await expect(page.getByText('Step 6 of 6')).toBeVisible();
}

export async function enterCase1Management(page: Page): Promise<void> {
  await answer(page, 'Is the patient diagnosed with Hypertension?', 'Yes');
  await page
    .getByRole('combobox', { name: 'Last doctor visit (Hypertension)' })
    .selectOption({ label: '6-12 months ago (0.75)' });
  await page
    .getByRole('combobox', { name: 'Current prescription duration (Hypertension)' })
    .selectOption({ label: 'Less than 4 months (0.75)' });
}

/** Case 1 entered from step 1 to the results: demographics, risk factors, symptoms, management. */
export async function enterCase1(page: Page): Promise<void> {
  await enterCase1Demographics(page);
  await enterCase1AfterDemographics(page);
}

/** Case 1 from step 1's Continue, its demographics entered, to the results. */
export async function enterCase1AfterDemographics(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Continue to Risk Factors' }).click();
  await enterCase1RiskFactors(page);
  await page.getByRole('button', { name: 'Continue to Symptoms' }).click();
  await enterCase1Symptoms(page);
  await page.getByRole('button', { name: 'Continue to Management' }).click();
  await enterCase1Management(page);
  await page.getByRole('button', { name: 'Calculate Results' }).click();
}

/** The result card of one condition, found by its heading. */
export function resultCard(page: Page, conditionName: string): Locator {
  return page.getByRole('region', { name: conditionName, exact: true });
}

export async function expectCase1Results(page: Page): Promise<void> {
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toContainText(`Patient BMI${case1.bmi}`);
  await expect(summary).toContainText('Assessment statusComplete');
  await expect(summary).toContainText(`Total score${case1.total}`);
  for (const condition of case1.conditions) {
    const card = resultCard(page, condition.name);
    await expect(card).toContainText(condition.status);
    await expect(card).toContainText(`Total score${condition.score}`);
    await expect(card).toContainText(`Factor count / threshold${condition.factors}`);
  }
  const attention = page.getByRole('region', { name: 'Conditions Requiring Attention' });
  for (const condition of case1.conditions) {
    const listed = attention.getByText(condition.name, { exact: true });
    if (case1.attention.includes(condition.name)) {
      await expect(listed).toBeVisible();
      const [count, threshold] = condition.factors.split(' / ');
      await expect(attention).toContainText(
        `${condition.name}${condition.status}Score ${condition.score} · ${count} factors, threshold ${threshold}`,
      );
    } else await expect(listed).toHaveCount(0);
  }
}
