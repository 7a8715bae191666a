import { type APIRequestContext, type Page } from '@playwright/test';
import { adminPassword, adminUsername, signIn } from './fixtures.ts';
import { axeViolations, expect, expectNoHorizontalOverflow, test } from './page-checks.ts';

interface Created {
  id: string;
  code: string;
  version: number;
  totalScore: number;
}

const patients = {
  woman62: {
    demographics: { age: 62, gender: 'Female', height: 160, weight: 81 },
    riskFactors: { familyHistory: { DM2: true } },
    symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
  },
  man45: { demographics: { age: 45, gender: 'Male', height: 180, weight: 80 } },
  womanPartial: { demographics: { gender: 'Female' } },
  man30: {
    demographics: { age: 30, gender: 'Male', height: 175, weight: 70 },
    symptoms: { Asthma: { wheezing: { present: true, severity: 'severe' } } },
  },
  man71: {
    demographics: { age: 71, gender: 'Male', height: 170, weight: 95 },
    management: { Hypertension: { diagnosed: true } },
  },
} as const;

/** Signs the page's browser context in through the API (the gate has its own tests). */
async function signInByApi(page: Page, username = adminUsername, password = adminPassword) {
  const response = await page.request.post('/api/session', { data: { username, password } });
  expect(response.status()).toBe(200);
}

/**
 * Deletes every live assessment, so that each test sees only its own, whatever other spec files
 * stored before it. Deletes are soft and admins may delete signed-off ones.
 */
async function deleteAllAssessments(request: APIRequestContext) {
  for (;;) {
    const list = (await (await request.get('/api/assessments?limit=200')).json()) as {
      items: Array<{ id: string; version: number }>;
    };
    if (list.items.length === 0) return;
    for (const { id, version } of list.items) {
      const deleted = await request.delete(`/api/assessments/${id}`, {
        headers: { 'if-match': `"${version}"` },
      });
      expect(deleted.status()).toBe(204);
    }
  }
}

async function createAssessment(request: APIRequestContext, body: object): Promise<Created> {
  const response = await request.post('/api/assessments', { data: body });
  expect(response.status()).toBe(201);
  return (await response.json()) as Created;
}

async function signOff(request: APIRequestContext, { id, version }: Created) {
  const signed = await request.post(`/api/assessments/${id}/sign-off`, {
    headers: { 'if-match': `"${version}"` },
  });
  expect(signed.status()).toBe(200);
}

/** The five patients above, the first and last signed off. */
async function createPatients(request: APIRequestContext) {
  const created: Record<keyof typeof patients, Created> = {
    woman62: await createAssessment(request, patients.woman62),
    man45: await createAssessment(request, patients.man45),
    womanPartial: await createAssessment(request, patients.womanPartial),
    man30: await createAssessment(request, patients.man30),
    man71: await createAssessment(request, patients.man71),
  };
  await signOff(request, created.woman62);
  await signOff(request, created.man71);
  return created;
}

function historyRows(page: Page) {
  return page.getByRole('list', { name: 'Assessments' }).getByRole('listitem');
}

function rowOf(page: Page, code: string) {
  return historyRows(page).filter({ hasText: code });
}

function searchBox(page: Page) {
  return page.getByRole('searchbox', { name: 'Search assessments' });
}

function utcDate(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

async function openDashboard(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}

/** Scrolls the element to just below the fixed header, as a user would to read it. */
async function scrollBelowHeader(page: Page, selector: string) {
  await page.evaluate(
    `window.scrollTo(0, document.querySelector('${selector}').getBoundingClientRect().top + window.scrollY - 80)`,
  );
}

test.describe('the dashboard', () => {
  test('a database with no assessments shows the empty history', async ({ page }) => {
    await signInByApi(page);
    await deleteAllAssessments(page.request);
    await openDashboard(page);
    await expect(page.getByRole('heading', { name: 'No Assessments Found' })).toBeVisible();
    await expect(page.getByText('Complete your first assessment to see it here')).toBeVisible();
    await expect(page.getByText('for the 0 assessments in the current search')).toBeVisible();
    await expect(page.getByText(/Found \d+ of/)).toHaveCount(0);
    await scrollBelowHeader(page, '#history-title');
    await page.screenshot({ path: 'test-results/dashboard-empty.png' });
  });

  test('shows the banner, cards, process, guidelines and admin tools with their links', async ({
    page,
  }) => {
    await signInByApi(page);
    await openDashboard(page);
    await expect(page.getByRole('link', { name: 'Start New Assessment' })).toHaveAttribute(
      'href',
      '/assessments/new',
    );
    for (const title of ['Risk Scoring', 'Clinical Decision Support', 'Records and Reports']) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
    const steps = page.getByRole('region', { name: 'Assessment Process' }).getByRole('listitem');
    await expect(steps).toHaveText([
      /Patient Demographics/,
      /Risk Factors/,
      /Symptom Evaluation/,
      /Results & Reports/,
    ]);
    await expect(page.getByRole('link', { name: 'Extract Codes' })).toHaveAttribute(
      'href',
      '/codes',
    );
    const guidelines = page.getByRole('region', { name: 'Clinical Guidelines Version 2.0' });
    for (const text of [
      'Type 2 Diabetes',
      'HIV',
      'TB',
      'Asthma',
      'Hypertension',
      'Hyperlipidaemia',
      'Low Risk',
      'Moderate Risk',
      'High Risk',
      'Diagnosed',
    ]) {
      await expect(guidelines.getByText(text, { exact: true })).toBeVisible();
    }
    const footer = page.getByRole('contentinfo');
    await expect(
      footer.getByText(
        'Chronic Disease Risk Assessment System v2.2 · Clinical Guidelines Version 2.0',
      ),
    ).toBeVisible();
    await expect(footer.getByText('For authorized healthcare professionals only')).toBeVisible();
  });

  test('a rendering error shows the error screen, which is logged, and Try Again recovers', async ({
    page,
  }) => {
    await signInByApi(page);
    const report = page.waitForRequest(
      (request) => request.url().endsWith('/api/client-errors') && request.method() === 'POST',
    );
    await page.goto('/?renderError=1');
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await expect(page.getByText('Forced render error (renderError=1)')).toBeVisible();
    await expect(
      page.getByText('If this problem persists, please contact technical support'),
    ).toBeVisible();
    await expect(page.getByText('This error has been logged.')).toBeVisible();
    const errorId = (await page.locator('code').textContent()) ?? '';
    expect(errorId).toMatch(/^ERR-[0-9A-Z]+$/);
    const sent = (await report).postDataJSON() as { errorId: string; recovered: boolean };
    expect(sent).toMatchObject({ errorId, recovered: false });
    expect((await (await report).response())?.status()).toBe(204);
    await page.screenshot({ path: 'test-results/dashboard-error-screen.png' });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    expect(new URL(page.url()).search).toBe('');
    const log = JSON.parse(
      (await page.evaluate<string | null>('localStorage.getItem("triage_error_log")')) ?? '[]',
    ) as Array<{ id: string; recovered: boolean; context: string; time: string }>;
    expect(log.at(-1)).toMatchObject({ id: errorId, recovered: true, context: 'render /' });
  });

  test('Restart App ends the session, clears the flag and reloads to the gate', async ({
    page,
  }) => {
    await page.goto('/');
    await signIn(page, adminUsername, adminPassword);
    expect(await page.evaluate('localStorage.getItem("triage_authenticated")')).toBe('true');
    await page.goto('/?renderError=1');
    await page.getByRole('button', { name: 'Restart App' }).click();
    await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
    expect(await page.evaluate('localStorage.getItem("triage_authenticated")')).toBeNull();
    expect((await page.request.get('/api/session')).status()).toBe(401);
  });

  test('offers a nurse no doctor review, bulk download, code extractor or signed-off delete', async ({
    page,
  }) => {
    await signInByApi(page);
    await deleteAllAssessments(page.request);
    const created = await createPatients(page.request);
    await openDashboard(page);
    // The administrator may delete signed-off assessments too.
    await expect(
      rowOf(page, created.woman62.code).getByRole('button', { name: 'Delete' }),
    ).toBeVisible();

    const nurse = { username: 'nurse.dashboard', password: 'amber-falcon-quartz-river-52' };
    const createdUser = await page.request.post('/api/users', {
      data: { ...nurse, displayName: 'Dana Nurse', role: 'nurse' },
    });
    expect(createdUser.status()).toBe(201);
    expect((await page.request.delete('/api/session')).status()).toBe(204);
    await signInByApi(page, nurse.username, nurse.password);
    await openDashboard(page);
    await expect(historyRows(page)).toHaveCount(5);
    await expect(page.getByRole('link', { name: 'Doctor Review' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Download All Reports' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Extract Codes' })).toHaveCount(0);
    await expect(
      rowOf(page, created.woman62.code).getByRole('button', { name: 'Delete' }),
    ).toHaveCount(0);
    await expect(
      rowOf(page, created.man45.code).getByRole('button', { name: 'Delete' }),
    ).toBeVisible();
  });
});

test.describe('the assessment history', () => {
  let created: Awaited<ReturnType<typeof createPatients>>;

  test.beforeEach(async ({ page }) => {
    await signInByApi(page);
    await deleteAllAssessments(page.request);
    created = await createPatients(page.request);
    await openDashboard(page);
    await expect(page.getByText('Found 5 of 5 assessments')).toBeVisible();
  });

  test('shows every field of a row and links to the assessment and its review', async ({
    page,
  }) => {
    const row = rowOf(page, created.woman62.code);
    await expect(row).toContainText('Female, 62 years · BMI 31.6');
    await expect(row).toContainText(`Total score ${created.woman62.totalScore.toFixed(4)}`);
    await expect(row).toContainText(`ID ${created.woman62.id}`);
    await expect(row).toContainText(/Signed off .+ by admin/);
    await expect(row.getByText('Complete', { exact: true })).toBeVisible();
    await expect(row.getByText('✓ Signed Off')).toBeVisible();
    await expect(row.getByRole('link', { name: 'View', exact: true })).toHaveAttribute(
      'href',
      `/assessments/${created.woman62.id}`,
    );
    await expect(row.getByRole('link', { name: 'Doctor Review' })).toHaveAttribute(
      'href',
      `/assessments/${created.woman62.id}/review`,
    );

    const partial = rowOf(page, created.womanPartial.code);
    await expect(partial).toContainText('Female, age not recorded · BMI —');
    await expect(partial.getByText('Incomplete', { exact: true })).toBeVisible();
    await expect(partial).toContainText('Not signed off');
    await expect(partial.getByText('✓ Signed Off')).toHaveCount(0);
  });

  test('searches on the server by code, gender and sign-off as the user types', async ({
    page,
  }) => {
    await searchBox(page).fill(created.man45.code.toLowerCase());
    await expect(page.getByText('Found 1 of 5 assessments')).toBeVisible();
    await expect(historyRows(page)).toHaveCount(1);
    await expect(rowOf(page, created.man45.code)).toBeVisible();

    await searchBox(page).fill('female');
    await expect(page.getByText('Found 2 of 5 assessments')).toBeVisible();
    await expect(historyRows(page)).toHaveText([/Female, age not recorded/, /Female, 62 years/]);
    // The population panel counts the same two assessments.
    await expect(page.getByText('for the 2 assessments in the current search')).toBeVisible();
    // Scoped by its caption: the dashboard also has a per-condition Doctor Agreement table.
    const diabetes = page
      .locator('table', { has: page.getByText('Assessments per risk status, by condition') })
      .getByRole('row', { name: /Type 2 Diabetes/ })
      .getByRole('cell');
    await expect(diabetes).toHaveText(['1', '0', '0', '0', '1']);

    await searchBox(page).fill('signed off');
    await expect(page.getByText('Found 2 of 5 assessments')).toBeVisible();
    await expect(historyRows(page).filter({ hasText: '✓ Signed Off' })).toHaveCount(2);

    await searchBox(page).fill('not signed off');
    await expect(page.getByText('Found 3 of 5 assessments')).toBeVisible();
    await expect(historyRows(page).filter({ hasText: '✓ Signed Off' })).toHaveCount(0);

    await searchBox(page).fill('male 71');
    await expect(page.getByText('Found 1 of 5 assessments')).toBeVisible();
    await expect(rowOf(page, created.man71.code)).toBeVisible();
  });

  test('never shows an older search’s answer after a newer one', async ({ page }) => {
    // The answer for 'male' is held back until after the answer for 'female' has arrived.
    await page.route(
      (url) => url.pathname === '/api/assessments' && url.searchParams.get('q') === 'male',
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue().catch(() => undefined);
      },
    );
    await searchBox(page).fill('male');
    await page.waitForRequest((request) => new URL(request.url()).searchParams.get('q') === 'male');
    await searchBox(page).fill('female');
    await expect(page.getByText('Found 2 of 5 assessments')).toBeVisible();
    await page.waitForTimeout(2_000);
    await expect(page.getByText('Found 2 of 5 assessments')).toBeVisible();
    await expect(historyRows(page)).toHaveCount(2);
  });

  test('filters by whole days, lists the active filters, and clears them', async ({ page }) => {
    const form = page.getByRole('form', { name: 'Date-range filter' });
    await form.getByLabel('Start Date').fill(utcDate(1));
    await form.getByRole('button', { name: 'Apply Filter' }).click();
    await expect(page.getByText(`Active filters: Start Date ${utcDate(1)}`)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No Matching Assessments' })).toBeVisible();
    await expect(page.getByText('Try adjusting your search terms')).toBeVisible();
    await expect(page.getByText('Found 0 of 5 assessments')).toBeVisible();
    await scrollBelowHeader(page, '#history-title');
    await page.screenshot({ path: 'test-results/dashboard-filtered-empty.png' });

    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await expect(page.getByText('Found 5 of 5 assessments')).toBeVisible();
    await expect(page.getByText(/Active filters/)).toHaveCount(0);
    await expect(form.getByLabel('Start Date')).toHaveValue('');

    await form.getByLabel('Start Date').fill(utcDate(-1));
    await form.getByLabel('End Date').fill(utcDate(0));
    await form.getByRole('button', { name: 'Apply Filter' }).click();
    await expect(
      page.getByText(`Active filters: Start Date ${utcDate(-1)}, End Date ${utcDate(0)}`),
    ).toBeVisible();
    await expect(page.getByText('Found 5 of 5 assessments')).toBeVisible();

    await form.getByLabel('End Date').fill(utcDate(-1));
    await form.getByRole('button', { name: 'Apply Filter' }).click();
    await expect(page.getByText('Found 0 of 5 assessments')).toBeVisible();

    await form.getByRole('button', { name: 'Clear Filter' }).click();
    await expect(page.getByText('Found 5 of 5 assessments')).toBeVisible();
    await expect(page.getByText(/Active filters/)).toHaveCount(0);
  });

  test('a search that matches nothing offers to clear it', async ({ page }) => {
    await searchBox(page).fill('no-such-assessment');
    await expect(page.getByRole('heading', { name: 'No Matching Assessments' })).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(searchBox(page)).toHaveValue('');
    await expect(historyRows(page)).toHaveCount(5);
  });

  test('deletes an assessment only after the confirmation', async ({ page }) => {
    const row = rowOf(page, created.man30.code);
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete assessment' });
    await expect(
      dialog.getByText('Are you sure you want to delete this assessment?'),
    ).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();

    // The delete is held back a moment so that its busy state can be seen.
    await page.route(`**/api/assessments/${created.man30.id}`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await row.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(row.getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    await expect(row).toHaveCount(0);
    await expect(page.getByText('Found 4 of 4 assessments')).toBeVisible();
    await page.reload();
    await expect(page.getByText('Found 4 of 4 assessments')).toBeVisible();
    await expect(rowOf(page, created.man30.code)).toHaveCount(0);
  });

  test('tells why a delete failed', async ({ page }) => {
    await page.route(`**/api/assessments/${created.man45.id}`, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal', message: 'Database is locked' } }),
      }),
    );
    await rowOf(page, created.man45.code).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete assessment' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText('Delete failed')).toBeVisible();
    await expect(page.getByText('Database is locked')).toBeVisible();
    await expect(rowOf(page, created.man45.code)).toBeVisible();
  });

  test('deletes nothing when someone else changed the assessment since the list was loaded', async ({
    page,
  }) => {
    const row = rowOf(page, created.man45.code);
    await expect(row).toContainText('Male, 45 years');
    const changed = await page.request.put(`/api/assessments/${created.man45.id}`, {
      headers: { 'if-match': `"${created.man45.version}"` },
      data: { ...patients.man45, demographics: { ...patients.man45.demographics, age: 46 } },
    });
    expect(changed.status()).toBe(200);

    await row.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete assessment' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText('Delete failed')).toBeVisible();
    await expect(
      page.getByText('Someone else changed this assessment after you opened it.', { exact: false }),
    ).toBeVisible();
    // The list shows the assessment as it is now, and a delete of that version goes through.
    await expect(row).toContainText('Male, 46 years');
    await expect(page.getByText('Found 5 of 5 assessments')).toBeVisible();
    await row.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete assessment' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(row).toHaveCount(0);
    await expect(page.getByText('Found 4 of 4 assessments')).toBeVisible();
  });

  test('shows the listing error panel, with Try Again and Dismiss Error', async ({ page }) => {
    const isListing = (url: URL) => url.pathname === '/api/assessments';
    await page.route(isListing, (route) => route.abort('internetdisconnected'));
    await searchBox(page).fill('male');
    const panel = page.getByRole('alert').filter({ hasText: 'Error Loading Assessments' });
    await expect(panel).toContainText(
      'Database error: Network connection issue. Please check your internet connection and try again.',
    );
    await scrollBelowHeader(page, '#history-title');
    await page.screenshot({ path: 'test-results/dashboard-history-error.png' });
    await panel.getByRole('button', { name: 'Dismiss Error' }).click();
    await expect(panel).toHaveCount(0);

    await searchBox(page).fill('female');
    await expect(panel).toBeVisible();
    await page.unroute(isListing);
    await panel.getByRole('button', { name: 'Try Again' }).click();
    await expect(panel).toHaveCount(0);
    await expect(page.getByText('Found 2 of 5 assessments')).toBeVisible();
  });

  test('loads 20 rows a page and more on demand', async ({ page }) => {
    for (let n = 0; n < 18; n += 1) await createAssessment(page.request, patients.man45);
    await page.reload();
    await expect(page.getByText('Found 23 of 23 assessments')).toBeVisible();
    await expect(historyRows(page)).toHaveCount(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(historyRows(page)).toHaveCount(23);
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    // The oldest assessment comes last.
    await expect(historyRows(page).last()).toContainText(created.woman62.code);
  });

  test('downloads the bulk report and CSV narrowed by the search', async ({ page }) => {
    const exportUrls: string[] = [];
    // The text report is held back a moment so that the busy state can be seen.
    await page.route('**/api/exports/**', async (route) => {
      exportUrls.push(route.request().url());
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await searchBox(page).fill('female');
    await expect(page.getByText('Found 2 of 5 assessments')).toBeVisible();
    const downloads: string[] = [];
    page.on('download', (download) => downloads.push(download.suggestedFilename()));
    await page.getByRole('button', { name: 'Download All Reports' }).click();
    await expect(page.getByRole('button', { name: 'Generating Report...' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Download All Reports' })).toBeEnabled();
    await expect.poll(() => downloads.length).toBe(2);
    expect(downloads[0]).toMatch(/^assessment-reports-\d{4}-\d\d-\d\d\.txt$/);
    expect(downloads[1]).toMatch(/^assessments-\d{4}-\d\d-\d\d\.csv$/);
    expect(exportUrls.map((url) => new URL(url).searchParams.get('q'))).toEqual([
      'female',
      'female',
    ]);
  });

  test('says so in the error banner when the bulk report fails', async ({ page }) => {
    await page.route('**/api/exports/assessments.csv*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'database_unavailable', message: 'down' } }),
      }),
    );
    await page.getByRole('button', { name: 'Download All Reports' }).click();
    const banner = page
      .getByRole('alert')
      .filter({ hasText: 'Failed to generate comprehensive reports. Please try again.' });
    await expect(banner).toBeVisible();
    await page.screenshot({ path: 'test-results/dashboard-banner.png' });
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner).toHaveCount(0);
  });
});

// Screenshots and accessibility checks at a laptop's and a phone's size, with five assessments.
for (const viewport of [
  { name: 'wide', width: 1366, height: 768 },
  { name: 'narrow', width: 390, height: 844 },
]) {
  test(`the dashboard fits and passes axe at ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signInByApi(page);
    await deleteAllAssessments(page.request);
    await createPatients(page.request);
    await openDashboard(page);
    await expect(page.getByText('Found 5 of 5 assessments')).toBeVisible();
    await expect(page.getByRole('table', { name: /risk status, by condition/ })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `test-results/dashboard-${viewport.name}.png` });
    await page.screenshot({
      path: `test-results/dashboard-${viewport.name}-full.png`,
      fullPage: true,
    });
    // What the user sees after scrolling to the history and to its rows (below the fixed header).
    for (const [target, name] of [
      ['#history-title', 'history'],
      ['ul[aria-label="Assessments"]', 'rows'],
    ] as const) {
      await scrollBelowHeader(page, target);
      await page.screenshot({ path: `test-results/dashboard-${viewport.name}-${name}.png` });
    }
  });
}
