import { signInAsNewUser } from './fixtures.ts';
import { axeViolations, expect, expectNoHorizontalOverflow, test } from './page-checks.ts';

test.describe.configure({ timeout: 120_000 });

/** A 30-year-old man with a long cough, weight loss and night sweats: TB is High Risk. */
const coughingPatient = {
  demographics: { age: 30, gender: 'Male', height: 180, weight: 70 },
  riskFactors: { smoking: false, familyHistory: {}, householdTBExposure: false },
  symptoms: {
    TB: {
      coughOver14Days: { present: true },
      weightLoss: { present: true, severity: 'loss' },
      nightSweats: { present: true, severity: 'moderate' },
    },
  },
};

test('Doctor Agreement shows kappa, the matrix and the latest comments, by dates, and downloads its CSV', async ({
  page,
}) => {
  await signInAsNewUser(page, 'doctor.agreement', 'doctor', 'Dr doctor.agreement');
  const created = await page.request.post('/api/assessments', { data: coughingPatient });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const locked = await page.request.post(`/api/assessments/${id}/review/lock`, {
    data: {
      reviews: [
        // TB alone: other browser tests count the other conditions' reviews on the same server.
        { condition: 'TB', agreed: false, doctorStatus: 'MAYBE', comments: 'A recent cold' },
      ],
    },
  });
  expect(locked.status()).toBe(200);

  await page.goto('/');
  const agreement = page.getByRole('region', { name: 'Doctor Agreement', exact: true });
  await agreement.scrollIntoViewIfNeeded();
  await expect(agreement.getByRole('row', { name: /^TB/ })).toHaveText(
    /TB\s*1\s*0 \(0%\)\s*Not enough reviews \(1 of 10\)/,
  );
  await agreement.getByRole('button', { name: 'TB: matrix and latest comments' }).click();
  const matrix = agreement.getByRole('table', { name: /^TB: the rules' status/ });
  await expect(matrix.getByRole('row', { name: /^High Risk/ })).toHaveText(
    /High Risk\s*0\s*1\s*0\s*0/,
  );
  await expect(agreement.getByText('A recent cold')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // Dates before the assessment: nothing reviewed.
  await agreement.getByLabel('Start Date').fill('2020-01-01');
  await agreement.getByLabel('End Date').fill('2020-01-31');
  await agreement.getByRole('button', { name: 'Apply Filter' }).click();
  await expect(
    agreement.getByText('Active filters: Start Date 2020-01-01, End Date 2020-01-31'),
  ).toBeVisible();
  await expect(agreement.getByRole('row', { name: /^TB/ })).toHaveText(
    /TB\s*0\s*0\s*Not enough reviews \(0 of 10\)/,
  );
  await agreement.getByRole('button', { name: 'Clear Filter' }).click();
  await expect(agreement.getByRole('row', { name: /^TB/ })).toHaveText(/TB\s*1/);

  const download = page.waitForEvent('download');
  await agreement.getByRole('button', { name: 'Download CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/^doctor-agreement-\d{4}-\d{2}-\d{2}\.csv$/);

  // On a phone the table drops its Kappa column, which each condition's panel gives.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  // The panel closed when the figures reloaded for the dates.
  await agreement.getByRole('button', { name: 'TB: matrix and latest comments' }).click();
  await expect(agreement.getByText('Kappa: Not enough reviews (1 of 10)')).toBeVisible();
  // What kappa means is said beside the figures, bands and all.
  await expect(
    agreement.getByText(
      'Kappa measures agreement beyond chance: below 0 is poor, 0–0.20 slight, 0.21–0.40 fair, 0.41–0.60 moderate, 0.61–0.80 substantial, 0.81–1 almost perfect.',
    ),
  ).toBeVisible();
  const card = await agreement.boundingBox();
  const table = await agreement.getByRole('table').first().boundingBox();
  if (card === null || table === null) throw new Error('The agreement summary is not laid out');
  expect(table.x + table.width).toBeLessThanOrEqual(card.x + card.width);
  expect(await axeViolations(page)).toEqual([]);
});
