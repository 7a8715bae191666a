import { type Page } from '@playwright/test';
import { signInAsNewUser } from './fixtures.ts';
import { axeViolations, expect, expectNoHorizontalOverflow, test } from './page-checks.ts';

// Each test signs in twice and runs axe several times, which takes longer than the default.
test.describe.configure({ timeout: 120_000 });

interface Totals {
  totalNotes: number;
  notesWithCodes: number;
  uniqueCodes: number;
  totalMatches: number;
}

/** The scan as the API answers it without streaming, to compare the page with. */
async function extractionByApi(page: Page) {
  const response = await page.request.post('/api/code-extraction');
  expect(response.status()).toBe(200);
  return (await response.json()) as {
    totals: Totals;
    matches: { code: string; type: string; confidence: string; context: string }[];
  };
}

/** Four notes: three with six codes between them, and one that says DM2 is not diagnosed. */
const notes = [
  {
    notes:
      'Follow-up diabetic review. HbA1c 7.1%. ICD-10: E11.65 (hyperglycaemia). Continue metformin.',
    management: { DM2: { diagnosed: false } },
  },
  {
    notes: 'HbA1c requested, LOINC 4548-4. CPT 83036 billed. Prescription RX-2024-00871 dispensed.',
  },
  {
    notes:
      'Seen with previous assessment ASS-M9CODES-AB12. Asthma J45.909, inhaler technique reviewed.',
    management: { Asthma: { diagnosed: true } },
  },
  { notes: 'Patient well, no concerns today.' },
];

/**
 * Holds the scan's answer after its first progress line until the test calls
 * `releaseExtraction()`, so that the progress bar can be seen; the rest passes through.
 */
async function holdExtractionAfterFirstProgress(page: Page) {
  // A string, as the e2e code is type-checked without the DOM library.
  await page.addInitScript(`
    const originalFetch = window.fetch.bind(window);
    let release = () => {};
    const released = new Promise((resolve) => {
      release = resolve;
    });
    window.releaseExtraction = () => release();
    window.fetch = async (input, init) => {
      const response = await originalFetch(input, init);
      if (String(input) !== '/api/code-extraction') return response;
      const text = await response.text();
      const encoder = new TextEncoder();
      const body = new ReadableStream({
        async start(controller) {
          controller.enqueue(encoder.encode('{"type":"progress","scanned":2,"total":4}\\n'));
          await released;
          controller.enqueue(encoder.encode(text));
          controller.close();
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
  `);
}

test('a doctor extracts the codes of the notes and sees counts, samples and checks', async ({
  page,
}) => {
  await signInAsNewUser(page, 'doctor.codes', 'doctor');
  const before = (await extractionByApi(page)).totals;
  for (const body of notes) {
    const response = await page.request.post('/api/assessments', { data: body });
    expect(response.status()).toBe(201);
  }
  const expected = await extractionByApi(page);
  expect(expected.totals).toEqual({
    totalNotes: before.totalNotes + 4,
    notesWithCodes: before.notesWithCodes + 3,
    uniqueCodes: before.uniqueCodes + 6,
    totalMatches: before.totalMatches + 6,
  });

  await holdExtractionAfterFirstProgress(page);
  await page.goto('/codes');
  await expect(page.getByRole('heading', { name: 'Nurse Notes Code Extractor' })).toBeVisible();
  await expect(page.getByRole('link', { name: '← Back to Dashboard' })).toHaveAttribute(
    'href',
    '/',
  );
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Extract All Codes' }).click();
  const progress = page.getByRole('progressbar', { name: 'Notes scanned' });
  await expect(progress).toHaveAttribute('aria-valuenow', '50');
  await expect(page.getByText('Scanned 2 of 4 notes')).toBeVisible();
  await page.screenshot({ path: 'test-results/codes-progress-wide.png' });
  await page.evaluate('window.releaseExtraction()');
  await expect(progress).toBeHidden();

  const totals = page.getByRole('definition');
  await expect(page.getByRole('term')).toHaveText([
    'Total Notes',
    'Notes with Codes',
    'Unique Codes',
    'Total Matches',
  ]);
  await expect(totals).toHaveText([
    String(expected.totals.totalNotes),
    String(expected.totals.notesWithCodes),
    String(expected.totals.uniqueCodes),
    String(expected.totals.totalMatches),
  ]);

  const byType = page.getByRole('table', { name: 'Codes by Type' });
  await expect(byType.getByRole('row', { name: 'ICD-10' })).toHaveText(/ICD-10\s*\d+/);
  await expect(byType.getByRole('row')).toHaveCount(12);

  // The first five matches, in the server's order, with type, confidence and context.
  const samples = page.getByRole('region', { name: 'Sample Codes' }).getByRole('listitem');
  const firstFive = expected.matches.slice(0, 5);
  expect(firstFive).toHaveLength(5);
  await expect(samples).toHaveCount(5);
  for (const [index, match] of firstFive.entries()) {
    for (const text of [match.code, match.type, match.confidence, match.context]) {
      await expect(samples.nth(index)).toContainText(text);
    }
  }

  const inconsistencies = page.getByRole('region', { name: 'Possible Inconsistencies' });
  await expect(inconsistencies).toContainText('for a clinician to look at');
  await expect(inconsistencies.getByRole('listitem').filter({ hasText: 'E11.65' })).toContainText(
    'records Type 2 Diabetes as not diagnosed',
  );
  await expect(inconsistencies.getByRole('listitem').filter({ hasText: 'J45.909' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Check Notes' })).toBeVisible();

  const kinds = page.getByRole('region', { name: 'Kinds of Codes Searched' }).getByRole('listitem');
  await expect(kinds).toHaveCount(11);
  await expect(kinds.filter({ hasText: /^ICD-10/ })).toContainText(['high']);
  await expect(kinds.filter({ hasText: /^CPT/ })).toContainText(['medium']);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV', exact: true }).click();
  expect((await downloading).suggestedFilename()).toMatch(
    /^code-extraction-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const reportDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Report', exact: true }).click();
  expect((await reportDownload).suggestedFilename()).toMatch(
    /^code-extraction-report-\d{4}-\d{2}-\d{2}\.txt$/,
  );

  expect(await axeViolations(page)).toEqual([]);
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: 'test-results/codes-wide.png', fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/codes-narrow.png', fullPage: true });
});

test('a failed scan says so and logs no note text', async ({ page }) => {
  await signInAsNewUser(page, 'doctor.codes.fail', 'doctor');
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.route('/api/code-extraction', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/x-ndjson',
      body: '{"type":"progress","scanned":1,"total":2}\n{"type":"error"}\n',
    }),
  );
  await page.goto('/codes');
  await page.getByRole('button', { name: 'Extract All Codes' }).click();
  await expect(
    page.getByText('Failed to extract codes from notes. Please check console for details.'),
  ).toBeVisible();
  await expect(page.getByRole('term')).toHaveCount(0);
  expect(errors.some((text) => text.startsWith('Code extraction failed'))).toBe(true);
});

test('a nurse may not open the code extractor', async ({ page }) => {
  await signInAsNewUser(page, 'nurse.codes', 'nurse');
  await page.goto('/codes');
  await expect(page.getByText('You do not have permission to view this page.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Extract All Codes' })).toHaveCount(0);
});
