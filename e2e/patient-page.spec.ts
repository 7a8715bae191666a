import { type Page } from '@playwright/test';
import { signInAsAdmin } from './fixtures.ts';
import { axeViolations, expect, expectNoHorizontalOverflow, test } from './page-checks.ts';

interface CreatedPatient {
  id: string;
  number: string;
}

interface CreatedAssessment {
  id: string;
  code: string;
}

/** A patient of their own for each test, so that the search finds only them. */
async function createPatient(page: Page, name: string): Promise<CreatedPatient> {
  const number = `PP-${Date.now().toString(36).toUpperCase()}`;
  const response = await page.request.post('/api/patients', {
    data: { number, name, birthDate: '1964-05-17', gender: 'Female' },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as CreatedPatient;
}

async function createAssessment(page: Page, body: object): Promise<CreatedAssessment> {
  const response = await page.request.post('/api/assessments', { data: body });
  expect(response.status()).toBe(201);
  return (await response.json()) as CreatedAssessment;
}

/**
 * Two visits: the first without a weight (so no BMI, and the conditions whose rules read it have
 * Insufficient Data unless already at risk), the second complete, with hypertension diagnosed.
 */
async function createVisits(page: Page, patient: CreatedPatient) {
  const first = await createAssessment(page, {
    patientId: patient.id,
    demographics: { gender: 'Female', height: 160 },
    riskFactors: { familyHistory: { DM2: true } },
    symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
  });
  const second = await createAssessment(page, {
    patientId: patient.id,
    demographics: { age: 61, gender: 'Female', height: 160, weight: 74 },
    riskFactors: { familyHistory: { DM2: true } },
    management: { Hypertension: { diagnosed: true } },
  });
  return { first, second };
}

function assessmentsTable(page: Page) {
  return page.getByRole('region', { name: 'Assessments of this patient' }).getByRole('table');
}

async function expectPatientPage(page: Page, patient: CreatedPatient, name: string) {
  await expect(page).toHaveURL(`/patients/${patient.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page).toHaveTitle(/^Patient · /);
}

/** Every chart has drawn its line: the chart library arrives in a chunk of its own. */
async function chartsDrawn(page: Page) {
  const figures = page.getByRole('figure');
  await expect(figures).toHaveCount(7);
  for (const figure of await figures.all()) {
    await expect(figure.locator('.recharts-line-curve').first()).toBeAttached();
  }
}

test.describe('the patient page', () => {
  test('is found with the dashboard search, lists and charts the assessments, and starts the next one', async ({
    page,
  }) => {
    await signInAsAdmin(page);
    const name = 'Ada Quillfeather';
    const patient = await createPatient(page, name);
    const { first, second } = await createVisits(page, patient);

    // Found by the start of the number, with the keyboard alone.
    const search = page.getByRole('searchbox', { name: 'Search patients' });
    await search.focus();
    await page.keyboard.type(patient.number);
    const results = page.getByRole('list', { name: 'Matching patients' });
    const result = results.getByRole('link');
    await expect(result).toHaveCount(1);
    await expect(result).toContainText(patient.number);
    await expect(result).toContainText(name);
    await expect(page.getByRole('status').filter({ hasText: '1 patient matches' })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/patient-search.png' });
    await page.keyboard.press('ArrowDown');
    await expect(result).toBeFocused();
    await page.keyboard.press('Enter');

    await expectPatientPage(page, patient, name);
    const details = page.getByRole('region', { name: 'Patient details' });
    await expect(details).toContainText(`Patient number${patient.number}`);
    await expect(details).toContainText('Date of birth');
    await expect(details).toContainText('1964');
    await expect(details).toContainText('GenderFemale');
    await expect(details).toContainText(/Age\d+ years/);

    // Newest first: a header row, then the second visit, then the first.
    const rows = assessmentsTable(page).getByRole('row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText(second.code);
    await expect(rows.nth(2)).toContainText(first.code);
    await expect(rows.nth(1).getByRole('link', { name: second.code })).toHaveAttribute(
      'href',
      `/assessments/${second.id}`,
    );
    await expect(rows.nth(1)).toContainText('Diagnosed');
    await expect(rows.nth(2)).toContainText('Insufficient Data');
    await expect(rows.nth(1).getByRole('cell').nth(3)).toHaveText(/^\d+\.\d{4}$/);

    await expect(
      page.getByRole('heading', { level: 2, name: 'Risk Status Over Time' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'BMI Over Time' })).toBeVisible();
    await chartsDrawn(page);
    await expect(page.getByRole('figure', { name: 'Hypertension', exact: true })).toContainText(
      'then Diagnosed at 1 assessment',
    );
    await expect(page.getByRole('figure', { name: /^BMI at each assessment/ })).toContainText(
      'Lowest 28.9, highest 28.9, latest 28.9; not measured at 1 assessment',
    );
    // One short line to see; the whole description stays for screen readers (the caption names
    // the figure) and is shown on request.
    const hypertensionChart = page.getByRole('figure', { name: 'Hypertension', exact: true });
    await expect(
      hypertensionChart.getByText('Latest: Diagnosed (was Low Risk)', { exact: true }),
    ).toBeVisible();
    const disclosure = hypertensionChart.locator('details');
    const described = disclosure.getByText(/^Oldest first: .*then Diagnosed at 1 assessment\.$/);
    await expect(described).toBeHidden();
    await disclosure.getByText('Details', { exact: true }).click();
    await expect(described).toBeVisible();
    await expect(
      page.getByRole('figure', { name: /^BMI at each assessment/ }).getByText('Latest BMI 28.9'),
    ).toBeVisible();
    // Headings in order: one h1, then h2 sections, then the charts' h3s.
    const levels = await page
      .getByRole('main')
      .locator('h1, h2, h3, h4, h5, h6')
      .evaluateAll((headings) => headings.map((heading) => Number(heading.tagName.slice(1))));
    expect(levels[0]).toBe(1);
    for (let i = 1; i < levels.length; i++) {
      expect(levels[i]! - levels[i - 1]!).toBeLessThanOrEqual(1);
    }

    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/patient-page.png' });
    for (const [title, file] of [
      ['Risk Status Over Time', 'patient-page-status-charts.png'],
      ['BMI Over Time', 'patient-page-bmi-chart.png'],
    ] as const) {
      await page.getByRole('heading', { level: 2, name: title }).evaluate((heading) => {
        window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - 80);
      });
      await page.screenshot({ path: `test-results/${file}` });
    }

    // The link names the patient; the wizard then chooses them and moves to step 1's address.
    const start = page.getByRole('link', { name: 'Start New Assessment' });
    await expect(start).toHaveAttribute('href', `/assessments/new?patient=${patient.id}`);
    await start.click();
    await expect(page).toHaveURL('/assessments/new?step=1');
    await expect(page.getByRole('combobox', { name: 'Patient number' })).toHaveValue(
      patient.number,
    );
  });

  test("is opened from the history row's patient number", async ({ page }) => {
    await signInAsAdmin(page);
    const name = 'Bea Historow';
    const patient = await createPatient(page, name);
    const { second } = await createVisits(page, patient);
    await page.reload();

    const row = page
      .getByRole('list', { name: 'Assessments' })
      .getByRole('listitem')
      .filter({ hasText: second.code });
    await row.getByRole('link', { name: patient.number }).click();
    await expectPatientPage(page, patient, name);
    await expect(assessmentsTable(page).getByRole('row')).toHaveCount(3);
  });

  test('fits a phone screen and has no WCAG A or AA violations there', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsAdmin(page);
    const name = 'Cai Narrowscreen';
    const patient = await createPatient(page, name);
    await createAssessment(page, {
      patientId: patient.id,
      demographics: { gender: 'Female', height: 160, weight: 83 },
    });
    await createVisits(page, patient);
    await page.goto(`/patients/${patient.id}`);
    await expectPatientPage(page, patient, name);
    await chartsDrawn(page);
    await expectNoHorizontalOverflow(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/patient-page-phone.png', fullPage: true });
  });

  test('lists the latest 10 assessments, and all of them on request', async ({ page }) => {
    await signInAsAdmin(page);
    const name = 'Eli Manyvisits';
    const patient = await createPatient(page, name);
    const codes: string[] = [];
    for (let visit = 0; visit < 11; visit++) {
      const created = await createAssessment(page, {
        patientId: patient.id,
        demographics: { gender: 'Male', height: 180, weight: 80 + visit },
      });
      codes.push(created.code);
    }
    await page.goto(`/patients/${patient.id}`);
    await expectPatientPage(page, patient, name);
    await expect(
      page.getByText('11 assessments, newest first; the latest 10 are listed.'),
    ).toBeVisible();
    const rows = assessmentsTable(page).getByRole('row');
    await expect(rows).toHaveCount(11);
    await expect(rows.nth(10)).toContainText(codes[1]!);

    await page.getByRole('button', { name: 'Show all 11 assessments' }).click();
    await expect(rows).toHaveCount(12);
    await expect(rows.nth(11).getByRole('link', { name: codes[0]! })).toBeFocused();
    // The charts follow every assessment, not only the listed ones.
    await expect(page.getByRole('figure', { name: 'HIV', exact: true })).toContainText(
      'at 11 assessments',
    );
  });

  test('says so when there is no such patient', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/patients/no-such-patient');
    await expect(page.getByRole('heading', { level: 1, name: 'Patient Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: '← Back to Dashboard' })).toHaveAttribute(
      'href',
      '/',
    );
  });

  test('offers to try again when the patient cannot be loaded', async ({ page }) => {
    await signInAsAdmin(page);
    const patient = await createPatient(page, 'Dee Retrymore');
    let failures = 1;
    await page.route(`**/api/patients/${patient.id}`, async (route) => {
      if (failures-- > 0)
        await route.fulfill({
          status: 503,
          json: {
            error: { code: 'database_unavailable', message: 'The database is not available.' },
          },
        });
      else await route.continue();
    });
    await page.goto(`/patients/${patient.id}`);
    await expect(page.getByText('Error Loading Patient')).toBeVisible();
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expectPatientPage(page, patient, 'Dee Retrymore');
    await expect(page.getByText('No assessments yet')).toBeVisible();
  });
});
