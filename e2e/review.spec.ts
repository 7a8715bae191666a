import { type Page } from '@playwright/test';
import { signInAsAdmin, signInAsNewUser } from './fixtures.ts';
import { axeViolations, expect, expectNoHorizontalOverflow, test } from './page-checks.ts';

// Each test signs in twice and runs axe several times, which takes longer than the default.
test.describe.configure({ timeout: 120_000 });

/**
 * DM2 with three risk factors and two symptoms (High Risk, 8.8625), diagnosed Hypertension and
 * a BMI of 82 / 1.65² = 30.1.
 */
const assessmentBody = {
  code: 'ASS-M9REVIEW-AB12',
  demographics: { age: 56, gender: 'Female', height: 165, weight: 82 },
  riskFactors: { smoking: false, familyHistory: { DM2: true }, householdTBExposure: false },
  symptoms: {
    DM2: {
      fatigue: { present: true, severity: 'moderate' },
      thirst: { present: true, severity: 'mild' },
    },
    TB: { weightLoss: { present: true, severity: 'loss' } },
  },
  management: {
    Hypertension: {
      diagnosed: true,
      lastDoctorVisit: '>12months',
      prescriptionDuration: '<4months',
    },
  },
  notes: 'Review e2e patient.',
};

async function createAssessment(page: Page, body: object = assessmentBody): Promise<string> {
  const response = await page.request.post('/api/assessments', { data: body });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  return id;
}

function conditionCard(page: Page, name: string) {
  return page.getByRole('region', { name, exact: true });
}

type AgreementCounts = Record<'DM2' | 'HIV', { reviewed: number; agreed: number }>;

/** The Doctor Agreement's reviewed and agreed counts of DM2 and HIV, from the API. */
async function agreementCounts(page: Page): Promise<AgreementCounts> {
  const response = await page.request.get('/api/reviews/agreement');
  expect(response.status()).toBe(200);
  const { conditions } = (await response.json()) as {
    conditions: Array<{ condition: string; reviewed: number; agreed: number }>;
  };
  const of = (condition: string) => {
    const row = conditions.find((entry) => entry.condition === condition);
    return { reviewed: row?.reviewed ?? 0, agreed: row?.agreed ?? 0 };
  };
  return { DM2: of('DM2'), HIV: of('HIV') };
}

/** A summary row: the condition, the reviews, then the agreed with their whole percentage. */
function agreementRowText(name: string, counts: { reviewed: number; agreed: number }): RegExp {
  const percent = Math.round((100 * counts.agreed) / counts.reviewed);
  return new RegExp(`^${name}\\s*${counts.reviewed}\\s*${counts.agreed} \\(${percent}%\\)`);
}

test('a doctor reviews, saves, reloads and finalizes a review', async ({ page }) => {
  await signInAsNewUser(page, 'doctor.review', 'doctor', 'Dr doctor.review');
  // Other tests finalize reviews on the same server: this one counts from what it found.
  const countsBefore = await agreementCounts(page);
  const id = await createAssessment(page);
  await page.goto(`/assessments/${id}/review`);

  await expect(page.getByRole('heading', { name: 'Doctor Review', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Results' })).toHaveAttribute(
    'href',
    `/assessments/${id}`,
  );
  await expect(page.getByText(`Assessment ID: ${id}`)).toBeVisible();
  await expect(page.getByText('Code: ASS-M9REVIEW-AB12')).toBeVisible();
  const patient = page.getByRole('region', { name: 'Patient' });
  await expect(patient).toContainText('Age56');
  await expect(patient).toContainText('GenderFemale');
  await expect(patient).toContainText('BMI30.1');
  await expect(patient).toContainText('StatusComplete');
  await expect(page.getByText('Locked', { exact: true })).toHaveCount(0);

  // The conditions come in spec order, each with its scores and the rules' reading.
  await expect(page.getByRole('heading', { level: 2 })).toHaveText([
    'Patient',
    'Type 2 Diabetes',
    'HIV',
    'TB',
    'Asthma',
    'Hypertension',
    'Hyperlipidaemia',
  ]);
  const dm2 = conditionCard(page, 'Type 2 Diabetes');
  // An untouched condition is marked Not reviewed beside its risk status.
  await expect(dm2.locator('.mantine-Badge-root')).toHaveText(['Not reviewed', 'High Risk']);
  await expect(dm2).toContainText('Total score 8.8625');
  await expect(dm2).toContainText('Factor count 5 against a threshold of 2');
  const riskFactors = dm2.getByRole('table', { name: 'Type 2 Diabetes risk factors' });
  await expect(riskFactors.getByRole('row', { name: 'Age 50 or over' })).toHaveText(/300%\s*Yes/);
  await expect(
    riskFactors.getByRole('row', { name: 'Family history of Type 2 Diabetes' }),
  ).toHaveText(/250%\s*Yes/);
  await expect(dm2.getByRole('row', { name: 'Fatigue' })).toContainText('Yes (moderate)');
  await expect(dm2.getByRole('row', { name: 'Increased Hunger' })).toContainText('Not recorded');
  await expect(dm2.getByRole('row', { name: 'Symptom score' })).toContainText('2.6125');
  await expect(conditionCard(page, 'TB').getByRole('row', { name: 'Weight Loss' })).toContainText(
    'Yes (Weight Loss)',
  );
  await expect(conditionCard(page, 'Asthma').getByRole('row', { name: 'Age under 50' })).toHaveText(
    /120%\s*No/,
  );
  const hypertension = conditionCard(page, 'Hypertension');
  await expect(hypertension.locator('.mantine-Badge-root')).toHaveText([
    'Not reviewed',
    'Diagnosed',
  ]);
  await expect(hypertension.getByRole('row', { name: 'Diagnosed' })).toContainText('Yes');
  await expect(hypertension.getByRole('row', { name: 'Last doctor visit' })).toContainText(
    'More than 12 months ago',
  );
  await expect(hypertension.getByRole('row', { name: 'Management score' })).toContainText(
    '1.7500 (cap 1.75)',
  );

  // Every condition starts not reviewed: neither Agree nor Disagree is chosen, the card says so,
  // and so does the action bar.
  for (const name of ['Type 2 Diabetes', 'Hyperlipidaemia']) {
    const card = conditionCard(page, name);
    await expect(card.getByText('Not reviewed', { exact: true })).toBeVisible();
    await expect(card.getByRole('radio', { name: 'Disagree' })).not.toBeChecked();
    await expect(card.getByRole('radio', { name: 'Agree', exact: true })).not.toBeChecked();
    await expect(card.getByLabel('Doctor Comments')).toBeDisabled();
  }
  const actions = page.getByRole('region', { name: 'Review actions' });
  await expect(actions).toContainText(
    'Not reviewed: Type 2 Diabetes, HIV, TB, Asthma, Hypertension, Hyperlipidaemia',
  );
  expect(await axeViolations(page)).toEqual([]);
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: 'test-results/review-wide.png', fullPage: true });

  await dm2.getByText('Agree', { exact: true }).click();
  await expect(dm2.getByRole('radio', { name: 'Agree', exact: true })).toBeChecked();
  await expect(dm2.getByText('Not reviewed', { exact: true })).toHaveCount(0);
  await expect(dm2.getByLabel('Which status would you give?')).toHaveCount(0);
  await dm2.getByLabel('Doctor Comments').fill('Agree: HbA1c and fasting glucose requested.');
  await expect(actions).toContainText(
    'Not reviewed: HIV, TB, Asthma, Hypertension, Hyperlipidaemia',
  );
  await page.getByRole('button', { name: 'Save Review' }).click();
  await expect(page.getByText('Doctor review saved successfully!')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await expect(page.getByText(/Last saved by Dr doctor\.review/)).toBeVisible();

  await page.reload();
  await expect(dm2.getByRole('radio', { name: 'Agree', exact: true })).toBeChecked();
  await expect(dm2.getByLabel('Doctor Comments')).toHaveValue(
    'Agree: HbA1c and fasting glucose requested.',
  );
  const hiv = conditionCard(page, 'HIV');
  await expect(hiv.getByText('Not reviewed', { exact: true })).toBeVisible();
  await expect(hiv.getByRole('radio', { name: 'Disagree' })).not.toBeChecked();

  // Disagreeing asks which status the doctor would give, by keyboard too; what is chosen after
  // the last save is saved by the finalize itself.
  await hiv.getByRole('radio', { name: 'Disagree' }).focus();
  await page.keyboard.press('Space');
  await expect(hiv.getByRole('radio', { name: 'Disagree' })).toBeChecked();
  const hivStatus = hiv.getByLabel('Which status would you give?');
  await expect(hivStatus).toHaveValue('');
  await page.keyboard.press('Tab');
  await expect(hivStatus).toBeFocused();
  await hivStatus.selectOption({ label: 'Low Risk' });
  await hiv
    .getByLabel('Doctor Comments')
    .fill('Female only; no symptoms. Disagree with screening.');
  expect(await axeViolations(page)).toEqual([]);
  await hiv.screenshot({ path: 'test-results/review-disagree-card.png' });
  await page.getByRole('button', { name: 'Finalize Doctor Review' }).click();
  const dialog = page.getByRole('dialog', { name: 'Finalize Doctor Review' });
  await expect(dialog).toContainText(
    'Are you sure you want to lock this doctor review? Once locked, it cannot be modified.',
  );
  await expect(dialog).toContainText('Not reviewed: TB, Asthma, Hypertension, Hyperlipidaemia');
  expect(await axeViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Lock Review' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Doctor review locked successfully!')).toBeVisible();

  await page.reload();
  await expect(
    page.getByText('Doctor Review Finalized - This review has been locked and cannot be modified'),
  ).toBeVisible();
  await expect(page.getByText('Locked', { exact: true })).toBeVisible();
  await expect(hiv.getByLabel('Doctor Comments')).toHaveValue(
    'Female only; no symptoms. Disagree with screening.',
  );
  await expect(hiv.getByLabel('Which status would you give?')).toHaveValue('FALSE');
  await expect(hiv.getByLabel('Which status would you give?')).toBeDisabled();
  await expect(dm2.getByRole('radio', { name: 'Agree', exact: true })).toBeChecked();
  // The conditions left untouched stay not reviewed in the finalized review.
  await expect(actions).toContainText('Not reviewed: TB, Asthma, Hypertension, Hyperlipidaemia');
  await expect(conditionCard(page, 'TB').getByText('Not reviewed', { exact: true })).toBeVisible();
  const stored = await page.request.get(`/api/assessments/${id}/review`);
  expect(
    ((await stored.json()) as { reviews: { condition: string; decided: boolean }[] }).reviews
      .filter((review) => review.decided)
      .map((review) => review.condition),
  ).toEqual(['DM2', 'HIV']);
  for (const textarea of await page.getByLabel('Doctor Comments').all()) {
    await expect(textarea).toBeDisabled();
  }
  for (const radio of await page.getByRole('radio').all()) {
    await expect(radio).toBeDisabled();
  }
  await expect(page.getByRole('button', { name: 'Save Review' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Finalize Doctor Review' })).toBeDisabled();
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/review-locked-wide.png', fullPage: true });
  await dm2.screenshot({ path: 'test-results/review-locked-card.png' });

  // The server refuses a change to the locked review, whatever the page shows.
  const refused = await page.request.put(`/api/assessments/${id}/review`, {
    data: { reviews: [{ condition: 'DM2', agreed: false, comments: '' }] },
  });
  expect(refused.status()).toBe(409);

  // The dashboard's agreement summary counts the finalized review.
  await page.goto('/');
  const agreement = page.getByRole('region', { name: 'Doctor Agreement', exact: true });
  // DM2 agreed and HIV disagreed: one more review of each, one more agreement of DM2's.
  const dm2Counts = {
    reviewed: countsBefore.DM2.reviewed + 1,
    agreed: countsBefore.DM2.agreed + 1,
  };
  const hivCounts = { reviewed: countsBefore.HIV.reviewed + 1, agreed: countsBefore.HIV.agreed };
  await expect(agreement.getByRole('row', { name: /Type 2 Diabetes/ })).toHaveText(
    agreementRowText('Type 2 Diabetes', dm2Counts),
  );
  await expect(agreement.getByRole('row', { name: /^HIV/ })).toHaveText(
    agreementRowText('HIV', hivCounts),
  );
  expect(await axeViolations(page)).toEqual([]);
  await agreement.screenshot({ path: 'test-results/review-agreement.png' });
});

test('the review page fits a phone and has no WCAG violations there', async ({ page }) => {
  await signInAsNewUser(page, 'doctor.phone', 'doctor', 'Dr doctor.phone');
  const id = await createAssessment(page, { ...assessmentBody, code: 'ASS-M9PHONE-CD34' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/assessments/${id}/review`);
  await expect(conditionCard(page, 'Type 2 Diabetes')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/review-narrow.png', fullPage: true });
  await page.screenshot({ path: 'test-results/review-narrow-top.png' });

  await page.goto('/');
  const agreement = page.getByRole('region', { name: 'Doctor Agreement', exact: true });
  await expect(agreement.getByRole('row')).toHaveCount(7);
  await expectNoHorizontalOverflow(page);
  // The card clips what does not fit, so the table itself must fit inside it.
  const card = await agreement.boundingBox();
  const table = await agreement.getByRole('table').boundingBox();
  if (card === null || table === null) throw new Error('The agreement summary is not laid out');
  expect(table.x + table.width).toBeLessThanOrEqual(card.x + card.width);
  await agreement.screenshot({ path: 'test-results/review-agreement-narrow.png' });
});

test('the review actions stay in reach while the doctor scrolls the conditions', async ({
  page,
}) => {
  await signInAsNewUser(page, 'doctor.scroll', 'doctor', 'Dr doctor.scroll');
  const id = await createAssessment(page, { ...assessmentBody, code: 'ASS-M9SCROLL-JK90' });
  await page.goto(`/assessments/${id}/review`);
  const save = page.getByRole('button', { name: 'Save Review' });
  const finalize = page.getByRole('button', { name: 'Finalize Doctor Review' });
  await expect(save).toBeInViewport();
  await expect(finalize).toBeInViewport();

  // Halfway down the page, with TB in view, the bar is still there, above the footer.
  const tb = conditionCard(page, 'TB');
  await tb.getByRole('heading', { name: 'TB' }).scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  await expect(save).toBeInViewport();
  await expect(finalize).toBeInViewport();
  const bar = await page.getByRole('region', { name: 'Review actions' }).boundingBox();
  const footer = await page.getByRole('contentinfo').boundingBox();
  if (bar === null || footer === null) throw new Error('The bar or the footer is not laid out');
  expect(bar.y + bar.height).toBeLessThanOrEqual(footer.y);
  await expect(page.getByRole('region', { name: 'Review actions' })).toContainText(
    'Not reviewed: Type 2 Diabetes, HIV, TB, Asthma, Hypertension, Hyperlipidaemia',
  );
  await tb.getByText('Disagree', { exact: true }).click();
  await tb.getByLabel('Which status would you give?').selectOption('MAYBE');
  await save.click();
  await expect(page.getByText('Doctor review saved successfully!')).toBeVisible();
  await expect(page.getByText('Doctor review saved successfully!')).toBeInViewport();
  await expect(page.getByRole('region', { name: 'Review actions' })).toContainText(
    'Not reviewed: Type 2 Diabetes, HIV, Asthma, Hypertension, Hyperlipidaemia',
  );
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/review-sticky-scrolled.png' });

  // Moving through the page by keyboard, what has the focus is never hidden under the bar.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('link', { name: 'Back to Results' }).focus();
  const barRegion = page.getByRole('region', { name: 'Review actions' });
  for (let step = 0; step < 40; step++) {
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    if ((await barRegion.locator(':focus').count()) > 0) break;
    const box = await focused.boundingBox();
    const barBox = await barRegion.boundingBox();
    if (box === null || barBox === null) throw new Error('Nothing is laid out with the focus');
    expect(
      box.y + box.height,
      await focused.evaluate((e) => e.outerHTML.slice(0, 80)),
    ).toBeLessThanOrEqual(barBox.y + 1);
  }
  // The keyboard reached the bar itself (its message's close button comes first).
  await expect(barRegion.getByRole('button', { name: 'Dismiss message' })).toBeFocused();

  await page.setViewportSize({ width: 390, height: 844 });
  await tb.getByRole('heading', { name: 'TB' }).scrollIntoViewIfNeeded();
  await expect(save).toBeInViewport();
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: 'test-results/review-sticky-narrow.png' });
});

test('a nurse may not open a review and sees no agreement summary', async ({ page }) => {
  await signInAsNewUser(page, 'nurse.review', 'nurse', 'Nurse nurse.review');
  const id = await createAssessment(page, { ...assessmentBody, code: 'ASS-M9NURSE-EF56' });
  await page.goto(`/assessments/${id}/review`);
  await expect(page.getByText('You do not have permission to view this page.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Review' })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Doctor Agreement', exact: true })).toHaveCount(0);
});

test('saving a review that was finalized meanwhile says so and shows it locked', async ({
  page,
}) => {
  await signInAsNewUser(page, 'doctor.second', 'doctor', 'Dr doctor.second');
  const id = await createAssessment(page, { ...assessmentBody, code: 'ASS-M9LOCKED-GH78' });
  await page.goto(`/assessments/${id}/review`);
  const dm2 = conditionCard(page, 'Type 2 Diabetes');
  await dm2.getByText('Agree', { exact: true }).click();
  await dm2.getByLabel('Doctor Comments').fill('Typed while a colleague finalized.');

  const locked = await page.request.post(`/api/assessments/${id}/review/lock`, {
    data: { reviews: [{ condition: 'DM2', agreed: true, comments: 'Finalized by a colleague.' }] },
  });
  expect(locked.status()).toBe(200);
  await page.getByRole('button', { name: 'Save Review' }).click();

  await expect(page.getByText('Review is already locked and cannot be modified')).toBeVisible();
  await expect(
    page.getByText('Doctor Review Finalized - This review has been locked and cannot be modified'),
  ).toBeVisible();
  await expect(dm2.getByLabel('Doctor Comments')).toHaveValue('Finalized by a colleague.');
  await expect(dm2.getByLabel('Doctor Comments')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save Review' })).toBeDisabled();
  expect(await axeViolations(page)).toEqual([]);
});

test('an unknown assessment says it could not be loaded', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/assessments/no-such-assessment/review');
  await expect(page.getByText('Failed to load assessment. Please try again.')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
