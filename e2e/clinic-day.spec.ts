import type { Page } from '@playwright/test';
import {
  enterCase1Demographics,
  enterCase1Management,
  enterCase1RiskFactors,
  enterCase1Symptoms,
  expectHeading,
  signInAsNurse,
} from './assessment-fixtures.ts';
import { adminPassword, adminUsername, signInAsAdmin, signInAsNewUser } from './fixtures.ts';
import { expect, test } from './page-checks.ts';

test.describe.configure({ timeout: 120_000 });

/** DM2 at High: thirst, family history and a BMI over 25 at 62. */
const highRisk = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { smoking: false, familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
};

async function createPatient(page: Page, name: string) {
  const number = `CD-${Date.now().toString(36).toUpperCase()}`;
  const response = await page.request.post('/api/patients', { data: { number, name } });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  return { id, number, name };
}

async function signedOff(page: Page, body: object): Promise<{ id: string; code: string }> {
  const created = await page.request.post('/api/assessments', { data: body });
  expect(created.status()).toBe(201);
  const assessment = (await created.json()) as { id: string; code: string };
  const signed = await page.request.post(`/api/assessments/${assessment.id}/sign-off`, {
    headers: { 'if-match': '"1"' },
  });
  expect(signed.status()).toBe(200);
  return assessment;
}

test('the review and Awaiting Review name the patient, and link to the patient page', async ({
  page,
}) => {
  await signInAsNewUser(page, 'doctor.patientline', 'doctor', 'Dr Patientline');
  const patient = await createPatient(page, 'Petra Patientline');
  const assessment = await signedOff(page, { ...highRisk, patientId: patient.id });
  // No height: the BMI cannot be computed.
  const unmeasured = await signedOff(page, { demographics: { age: 40, weight: 70 } });

  await page.goto('/worklists/review');
  const row = page
    .getByRole('region', { name: 'Assessments awaiting review' })
    .locator('tbody tr')
    .filter({ hasText: assessment.code });
  await expect(row.getByRole('cell').first()).toHaveText(`${patient.number}${patient.name}`);
  await expect(row.getByRole('link', { name: patient.number })).toHaveAttribute(
    'href',
    `/patients/${patient.id}`,
  );

  await row.getByRole('link', { name: `Review ${assessment.code}` }).click();
  await expect(page.getByRole('heading', { name: 'Doctor Review', level: 1 })).toBeVisible();
  const summary = page.getByRole('region', { name: 'Patient' });
  await expect(summary).toContainText(`Patient record${patient.number}${patient.name}`);
  await expect(summary).toContainText('Age62');
  await expect(summary).toContainText('GenderFemale');
  await expect(summary).toContainText('BMI31.2');
  for (const viewport of [
    { name: 'desktop', width: 1366, height: 800 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await summary.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/review-patient-${viewport.name}.png` });
  }
  await summary.getByRole('link', { name: patient.number }).click();
  await expect(page).toHaveURL(`/patients/${patient.id}`);
  await expect(page.getByRole('heading', { level: 1, name: patient.name })).toBeVisible();

  // An assessment without a patient record or a BMI: no patient line, and a dash for the BMI.
  await page.goto(`/assessments/${unmeasured.id}/review`);
  await expect(summary).toContainText('BMI—');
  await expect(summary).not.toContainText('Patient record');
});

test.describe('the next review', () => {
  // The none-left answer is the test's own; a service worker's fetches would pass it by.
  test.use({ serviceWorkers: 'block' });

  test("after Finalize the action bar holds 'Next review', focused; with none left it offers the worklist", async ({
    page,
  }) => {
    await signInAsNewUser(page, 'doctor.nextreview', 'doctor', 'Dr Nextreview');
    const first = await signedOff(page, highRisk);
    const second = await signedOff(page, highRisk);
    await page.goto(`/assessments/${first.id}/review`);
    const actions = page.getByRole('region', { name: 'Review actions' });
    await expect(actions.getByRole('button', { name: 'Next review' })).toHaveCount(0);
    await actions.getByRole('button', { name: 'Finalize Doctor Review' }).click();
    await page
      .getByRole('dialog', { name: 'Finalize Doctor Review' })
      .getByRole('button', { name: 'Lock Review' })
      .click();
    const next = actions.getByRole('button', { name: 'Next review' });
    await expect(next).toBeFocused();
    await expect(next).toBeInViewport();
    await page.screenshot({ path: 'test-results/review-next-in-bar-desktop.png' });

    // The keyboard takes it to the most urgent review left.
    const { items } = (await (await page.request.get('/api/worklists/review?limit=1')).json()) as {
      items: Array<{ assessmentId: string }>;
    };
    expect(items[0]?.assessmentId).not.toBe(first.id);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/assessments/${items[0]?.assessmentId ?? ''}/review`);

    // None left (as the list answers): it says so, and the worklist link takes the focus.
    await page.goto(`/assessments/${second.id}/review`);
    await page.route(
      (url) => url.pathname === '/api/worklists/review',
      (route) => route.fulfill({ json: { items: [], total: 0, nextCursor: null } }),
    );
    await actions.getByRole('button', { name: 'Finalize Doctor Review' }).click();
    await page
      .getByRole('dialog', { name: 'Finalize Doctor Review' })
      .getByRole('button', { name: 'Lock Review' })
      .click();
    await expect(next).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(actions.getByText('No more assessments await review.')).toBeVisible();
    const worklist = actions.getByRole('link', { name: 'Open Awaiting Review' });
    await expect(worklist).toBeFocused();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(worklist).toBeInViewport();
    await page.screenshot({ path: 'test-results/review-none-left-phone.png' });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/worklists/review');
  });
});

test('the footer names the active rule set, as the spec words it for the default', async ({
  page,
}) => {
  const footer = page.getByRole('contentinfo');
  const trial = '2.0-dm2-bmi-0.25';
  await signInAsAdmin(page);
  await expect(footer.getByText(/^Chronic Disease Risk Assessment System v2\.2/)).toHaveText(
    'Chronic Disease Risk Assessment System v2.2 · Clinical Guidelines Version 2.0',
  );
  try {
    const activated = await page.request.put('/api/rule-sets/active', {
      data: { version: trial },
    });
    expect(activated.status()).toBe(200);
    await page.reload();
    await expect(footer.getByText(/^Chronic Disease Risk Assessment System v2\.2/)).toHaveText(
      `Chronic Disease Risk Assessment System v2.2 · Clinical Guidelines Version ${trial}`,
    );
    await page.screenshot({ path: 'test-results/footer-trial-desktop.png' });
  } finally {
    // The server is shared by every spec: the default is active again after this one.
    const restored = await page.request.put('/api/rule-sets/active', {
      data: { version: '2.0' },
    });
    expect(restored.status()).toBe(200);
  }
  await page.reload();
  await expect(footer.getByText(/^Chronic Disease Risk Assessment System v2\.2/)).toHaveText(
    'Chronic Disease Risk Assessment System v2.2 · Clinical Guidelines Version 2.0',
  );
});

test('a first visit asks for the session without a failed request in the console', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
  expect({ errors, refused }).toEqual({ errors: [], refused: [] });
  // Signed in, the same check finds the session.
  await page.getByLabel('User name').fill(adminUsername);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(adminPassword);
  await page.getByRole('button', { name: 'Access System' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

/**
 * The page's buttons and fields that something else covers at their centre (a fixed footer or
 * bar), at any point of a scroll from top to end, so that a tap there would not reach them. The
 * header is left out: what it covers is free again a little scroll up.
 */
async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const covered = new Set<string>();
    const end = document.documentElement.scrollHeight;
    for (let top = 0; top <= end; top += window.innerHeight / 4) {
      window.scrollTo(0, top);
      const controls = document.querySelectorAll<HTMLElement>(
        'main button, main input:not([type=radio]):not([type=checkbox]), main select, main textarea, main a[href]',
      );
      for (const control of controls) {
        if (!control.checkVisibility()) continue;
        const box = control.getBoundingClientRect();
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        if (box.width === 0 || y < 0 || y > window.innerHeight) continue;
        const hit = document.elementFromPoint(x, y);
        if (hit === null || control.contains(hit) || hit.closest('header') !== null) continue;
        const labels = 'labels' in control ? (control as HTMLInputElement).labels : null;
        if (labels !== null && Array.from(labels).some((label) => label.contains(hit))) continue;
        const name = control.getAttribute('aria-label') ?? labels?.[0]?.textContent;
        covered.add(name ?? control.textContent ?? control.tagName);
      }
    }
    return [...covered];
  });
}

/**
 * Checks every control of the step from top to end; then, scrolled to the end, that the page's
 * last control is in view and can be tapped, and so can the step's own button.
 */
async function expectStepEndReachable(page: Page, stepButton: string, screenshot: string) {
  expect(await coveredControls(page)).toEqual([]);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.screenshot({ path: `test-results/${screenshot}` });
  const last = page
    .getByRole('main')
    .locator('button:visible, input:visible, a[href]:visible')
    .last();
  await expect(last).toBeInViewport();
  // A trial click fails when another element would receive it.
  await last.click({ trial: true, timeout: 2000 });
  await page.getByRole('button', { name: stepButton }).click({ trial: true, timeout: 2000 });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('no fixed element covers a field or button at the end of any wizard step', async ({
    page,
  }) => {
    await signInAsNurse(page);
    await page.goto('/assessments/new');
    await expectHeading(page, 'Patient Demographics');
    await enterCase1Demographics(page);
    await expectStepEndReachable(page, 'Continue to Risk Factors', 'phone-step-1.png');
    await page.getByRole('button', { name: 'Continue to Risk Factors' }).click();
    await enterCase1RiskFactors(page);
    await expectStepEndReachable(page, 'Continue to Symptoms', 'phone-step-2.png');
    await page.getByRole('button', { name: 'Continue to Symptoms' }).click();
    await enterCase1Symptoms(page);
    await expectStepEndReachable(page, 'Continue to Management', 'phone-step-3.png');
    await page.getByRole('button', { name: 'Continue to Management' }).click();
    await enterCase1Management(page);
    await expectStepEndReachable(page, 'Calculate Results', 'phone-step-4.png');
    await page.getByRole('button', { name: 'Calculate Results' }).click();
    await expectHeading(page, 'Results');
    // A slow read of the stored assessment must not put a loader in place of the results.
    await page.route('**/api/assessments/*', async (route) => {
      if (route.request().method() === 'GET') await new Promise((done) => setTimeout(done, 1000));
      await route.fallback();
    });
    await page.getByRole('button', { name: 'Save Assessment' }).click();
    await expect(page.getByText('Assessment saved successfully!')).toBeVisible();
    // The first save opens the stored assessment where the nurse was, with no loader between:
    // the read is held for a second, so a loader would be on screen now.
    await page.waitForTimeout(300);
    expect(await page.getByText('Loading results...').isVisible()).toBe(false);
    await expect(page.getByRole('button', { name: 'Sign Off Results' })).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Sign Off Results' })).toBeEnabled();
    await expectStepEndReachable(page, 'Sign Off Results', 'phone-step-5.png');
  });
});
