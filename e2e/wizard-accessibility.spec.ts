import { type Page } from '@playwright/test';
import {
  enterCase1Demographics,
  enterCase1Management,
  enterCase1RiskFactors,
  enterCase1Symptoms,
  expectHeading,
  signInAsNurse,
  wcagViolations,
} from './assessment-fixtures.ts';
import { expect, test } from './page-checks.ts';

/** Nothing may make the whole page scroll sideways. */
async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  expect(overflow).toBe(0);
}

// Other suites' runs empty test-results; SCREENSHOT_DIR keeps the pictures elsewhere to look at.
const screenshotDir = process.env.SCREENSHOT_DIR ?? 'test-results';

const viewports = [
  { name: 'wide', width: 1366, height: 768 },
  { name: 'narrow', width: 390, height: 844 },
];

for (const viewport of viewports) {
  test(`every wizard step passes axe (WCAG 2.2 AA) and fits ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });

    /**
     * Checks the page as it is now and keeps pictures of it for a person to look at: the whole
     * page, and a long page also screen by screen (or only the screen, for a dialog).
     */
    async function check(name: string, { wholePage = true } = {}) {
      await expectNoHorizontalOverflow(page);
      expect(await wcagViolations(page)).toEqual([]);
      const base = `${screenshotDir}/wizard-${name}-${viewport.name}`;
      if (!wholePage) {
        await page.screenshot({ path: `${base}.png` });
        return;
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      // The fixed footer would otherwise be drawn across the middle of a full-page picture.
      const style = '.mantine-AppShell-footer { position: static !important; }';
      await page.screenshot({ path: `${base}.png`, fullPage: true, style });
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      if (height <= viewport.height * 1.5) return;
      for (let top = 0, part = 1; top < height; top += viewport.height, part++) {
        // The last screen ends at the bottom of the page rather than being a thin strip.
        const y = Math.min(top, height - viewport.height);
        const clip = { x: 0, y, width: viewport.width, height: viewport.height };
        await page.screenshot({ path: `${base}-part${part}.png`, fullPage: true, clip, style });
      }
    }

    await signInAsNurse(page);
    await page.goto('/assessments/new');
    await expectHeading(page, 'Patient Demographics');
    await check('1-demographics-empty');

    // The invalid state: messages beside the fields.
    const age = page.getByRole('textbox', { name: 'Age' });
    await age.fill('130');
    await page.getByRole('textbox', { name: 'Height (cm)' }).fill('30');
    await age.focus();
    await expect(page.getByText('Age must be between 1 and 120')).toBeVisible();
    await check('1-demographics-invalid');

    await enterCase1Demographics(page);
    await expect(page.getByText('BMI >25 will be considered in risk calculations')).toBeVisible();
    await check('1-demographics');
    await page.getByRole('button', { name: 'Continue to Risk Factors' }).click();

    await expectHeading(page, 'Risk Factor Assessment');
    await enterCase1RiskFactors(page);
    await check('2-risk-factors');
    await page.getByRole('button', { name: 'Continue to Symptoms' }).click();

    await expectHeading(page, 'Symptom Assessment');
    await page
      .getByRole('radiogroup', { name: 'Increased Thirst', exact: true })
      .getByRole('radio', { name: 'Yes' })
      .check();
    await check('3-symptoms-dm2');
    await page
      .getByRole('radiogroup', { name: 'Increased Thirst', exact: true })
      .getByRole('radio', { name: 'No' })
      .check();
    await enterCase1Symptoms(page);
    await check('3-symptoms-hyperlipidaemia');
    await page.getByRole('button', { name: 'Previous Condition' }).click();
    await page.getByRole('button', { name: 'Previous Condition' }).click();
    await expect(page.getByText('Prerequisites Required')).toBeVisible();
    await check('3-symptoms-asthma');
    await page.getByRole('button', { name: 'Continue to Management' }).click();

    await expectHeading(page, 'Management');
    await enterCase1Management(page);
    await check('4-management');
    await page.getByRole('button', { name: 'Calculate Results' }).click();

    await expectHeading(page, 'Results');
    // The chart draws after layout; wait for its bars before the picture.
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await check('5-results-unsaved');

    await page.getByRole('textbox', { name: 'Clinical Notes' }).fill('Follow up in two weeks.');
    await page.getByRole('button', { name: 'Save Assessment' }).click();
    await expect(page.getByRole('button', { name: 'Assessment Saved' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign Off Results' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign Off Results' });
    await expect(dialog).toBeVisible();
    await check('5-sign-off-dialog', { wholePage: false });
    await dialog.getByRole('button', { name: 'Sign Off' }).click();
    await expect(page.getByText('🔒 Signed Off - Read Only')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
    // The sign-off notice fades in and, after a few seconds, out; axe reads the page once it
    // has gone, never while its text is half faded.
    const notice = page.getByText('Assessment signed off.');
    await expect(notice).toBeVisible();
    await expect(notice).toBeHidden({ timeout: 15_000 });
    await check('5-results-signed-off');
  });
}
