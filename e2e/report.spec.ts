import { signInAsAdmin, signInAsNewUser } from './fixtures.ts';
import { axeViolations, expect, expectNoHorizontalOverflow, test } from './page-checks.ts';

// Each test signs in twice and runs axe several times, which takes longer than the default.
test.describe.configure({ timeout: 120_000 });

interface Report {
  title: string;
  sections: { heading: string; lines: string[] }[];
  fileName: string;
}

test('a nurse opens, prints and downloads the report of an assessment', async ({ page }) => {
  await signInAsNewUser(page, 'nurse.report', 'nurse');
  const created = await page.request.post('/api/assessments', {
    data: {
      code: 'ASS-M9REPORT-GH78',
      demographics: { age: 61, gender: 'Male', height: 178, weight: 91 },
      riskFactors: { smoking: true, familyHistory: { Hypertension: true } },
      symptoms: { Hypertension: { headache: { present: true, severity: 'severe' } } },
      notes: 'Headaches for two weeks.\nBP 162/98 today.',
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const report = (await (await page.request.get(`/api/assessments/${id}/report`)).json()) as Report;

  // Print is counted, not opened: a print dialog would stop the test.
  await page.addInitScript(`
    window.print = () => {
      document.body.dataset.printed = String(Number(document.body.dataset.printed ?? '0') + 1);
    };
  `);
  await page.goto(`/assessments/${id}/report`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(report.title);
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(
    report.sections.map((section) => section.heading),
  );
  const notes = page.getByRole('region', { name: 'Clinical Notes' });
  await expect(notes.getByText('Headaches for two weeks.')).toBeVisible();
  await expect(notes.getByText('BP 162/98 today.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Disclaimer' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: 'test-results/report-wide.png', fullPage: true });

  await page.getByRole('button', { name: 'Print' }).click();
  await expect(page.locator('body')).toHaveAttribute('data-printed', '1');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Report' }).click();
  expect((await download).suggestedFilename()).toBe(report.fileName);
  expect(report.fileName).toMatch(
    /^comprehensive-assessment-ASS-M9REPORT-GH78-\d{4}-\d{2}-\d{2}\.txt$/,
  );

  // Printed, only the report remains, black on white.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('contentinfo')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Download Report' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Back to Results' })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const line = notes.getByText('BP 162/98 today.');
  await expect(line).toHaveCSS('color', 'rgb(0, 0, 0)');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(255, 255, 255)');
  // The report starts at the top left of the printable area, not beside a hidden navigation.
  // Polled: the shell's main area slides into the navigation's place in a transition.
  const heading = page.getByRole('heading', { level: 1 });
  await expect.poll(async () => (await heading.boundingBox())?.x).toBeLessThan(40);
  await expect.poll(async () => (await heading.boundingBox())?.y).toBeLessThan(40);
  await page.screenshot({ path: 'test-results/report-print.png', fullPage: true });

  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByRole('banner')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: 'test-results/report-narrow.png', fullPage: true });

  // Other views print as they are: the print rules belong to the report only.
  await page.goto('/');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeVisible();
});

test('a missing assessment or a failing server says the report cannot be made', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto('/assessments/no-such-assessment/report');
  await expect(page.getByText('Cannot generate report: Missing assessment data')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await expect(page.getByRole('button', { name: 'Print' })).toHaveCount(0);

  await page.route('/api/assessments/failing/report', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal', message: 'boom' } }),
    }),
  );
  await page.goto('/assessments/failing/report');
  await expect(page.getByText('Failed to generate report. Please try again.')).toBeVisible();
});
