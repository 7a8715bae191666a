import { readFile } from 'node:fs/promises';
import { type Locator, type Page } from '@playwright/test';
import { signInAsAdmin, signInAsNewUser } from './fixtures.ts';
import { axeViolations, expect, expectNoHorizontalOverflow, test } from './page-checks.ts';

test.describe.configure({ timeout: 120_000 });

const defaultVersion = '2.0';
const trialVersion = '2.0-dm2-bmi-0.25';

const conditionNames: Record<string, string> = {
  DM2: 'Type 2 Diabetes',
  HIV: 'HIV',
  TB: 'TB',
  Asthma: 'Asthma',
  Hypertension: 'Hypertension',
  Hyperlipidaemia: 'Hyperlipidaemia',
};

const statusLabels: Record<string, string> = {
  FALSE: 'Low Risk',
  MAYBE: 'Moderate Risk',
  TRUE: 'High Risk',
  DIAGNOSED: 'Diagnosed',
  UNKNOWN: 'Insufficient Data',
};

/** The parts of GET /api/rule-sets/:version the page shows. */
interface RuleSetData {
  name: string;
  severityMultipliers: Record<string, number>;
  unratedMultiplier: number;
  comorbidityScore: number;
  conditions: Record<
    string,
    {
      threshold: number;
      managementCap: number;
      symptoms: { name: string; weight: number }[];
      riskFactors: { name: string; weight: number; criterion: Record<string, unknown> }[];
      comorbidities: string[];
      lastDoctorVisitScores: Record<string, number>;
      prescriptionDurationScores: Record<string, number>;
    }
  >;
}

interface ImpactData {
  assessments: number;
  conditions: Record<
    string,
    {
      changed: number;
      matrix: Record<string, Record<string, number>>;
      agreement: Record<'stored' | 'new', { reviews: number; agreed: number }>;
    }
  >;
}

const visitLabels: Record<string, string> = {
  never: 'Never',
  '<4months': 'Less than 4 months ago',
  '4-6months': '4-6 months ago',
  '6-12months': '6-12 months ago',
  '>12months': 'More than 12 months ago',
};
const prescriptionLabels: Record<string, string> = {
  '<4months': 'Less than 4 months',
  '4-6months': '4-6 months',
  '6-12months': '6-12 months',
  '>12months': 'More than 12 months',
};

/** The figure a row of a table gives in its first cell. */
function figureOf(table: Locator, rowName: string): Locator {
  return table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name: rowName, exact: true }) })
    .getByRole('cell')
    .first();
}

/** The page's own number text: as JSON writes it (0.85, 3, 1.33). */
const shown = (value: number) => String(value);

async function ruleSetData(page: Page, version: string): Promise<RuleSetData> {
  const response = await page.request.get(`/api/rule-sets/${version}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as RuleSetData;
}

async function setActive(page: Page, version: string): Promise<void> {
  const response = await page.request.put('/api/rule-sets/active', { data: { version } });
  expect(response.status()).toBe(200);
}

test("every weight, threshold and cap on the page is the data's, and a nurse may not activate", async ({
  page,
}) => {
  await signInAsNewUser(page, 'nurse.guidelines', 'nurse');
  await page.getByRole('link', { name: 'Read the guidelines' }).click();
  await expect(page).toHaveURL(/\/guidelines$/);
  await expect(page.getByRole('heading', { name: 'Clinical Guidelines', level: 1 })).toBeVisible();
  const select = page.getByRole('combobox', { name: 'Guidelines version' });
  await expect(select).toHaveValue(defaultVersion);
  await expect(page.getByText('Active', { exact: true })).toBeVisible();

  const data = await ruleSetData(page, defaultVersion);
  const shared = page.getByRole('table', { name: 'Multipliers and scores of every condition' });
  for (const [severity, multiplier] of Object.entries(data.severityMultipliers)) {
    await expect(figureOf(shared, `Severity: ${severity}`)).toHaveText(shown(multiplier));
  }
  await expect(figureOf(shared, 'Present, no rating')).toHaveText(shown(data.unratedMultiplier));
  await expect(figureOf(shared, 'Each diagnosed comorbidity')).toHaveText(
    shown(data.comorbidityScore),
  );

  for (const [condition, rules] of Object.entries(data.conditions)) {
    const name = conditionNames[condition] ?? condition;
    const section = page.getByRole('region', { name, exact: true });
    const figures = section.getByRole('table', { name: `${name}: threshold`, exact: false });
    await expect(figureOf(figures, 'Threshold (factors at Moderate Risk)')).toHaveText(
      shown(rules.threshold),
    );
    await expect(figureOf(figures, 'Management cap')).toHaveText(shown(rules.managementCap));
    await expect(figures.getByRole('row').nth(2).getByRole('cell')).toHaveText(
      rules.comorbidities.length === 0
        ? 'None'
        : rules.comorbidities.map((other) => conditionNames[other]).join(', '),
    );

    if (rules.symptoms.length > 0) {
      const symptoms = section.getByRole('table', { name: `${name} symptoms` });
      await expect(symptoms.locator('tbody tr')).toHaveCount(rules.symptoms.length);
      for (const symptom of rules.symptoms) {
        await expect(figureOf(symptoms, symptom.name)).toHaveText(shown(symptom.weight));
      }
    }

    const factors = section.getByRole('table', { name: `${name} risk factors` });
    await expect(factors.locator('tbody tr')).toHaveCount(rules.riskFactors.length);
    for (const factor of rules.riskFactors) {
      await expect(figureOf(factors, factor.name)).toHaveText(
        `${shown(factor.weight)} (${Math.round(factor.weight * 100)}%)`,
      );
      const criterion = factor.criterion;
      const applies = factors
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: factor.name, exact: true }) })
        .getByRole('cell')
        .nth(1);
      if (criterion.kind === 'ageAtLeast') {
        await expect(applies).toHaveText(`Age ${String(criterion.years)} or over`);
      } else if (criterion.kind === 'bmiAbove') {
        await expect(applies).toHaveText(`BMI above ${String(criterion.bmi)}`);
      } else if (criterion.kind === 'familyHistory') {
        await expect(applies).toHaveText(
          `Family history of ${conditionNames[String(criterion.condition)]} answered Yes`,
        );
      } else {
        await expect(applies).not.toBeEmpty();
      }
    }

    const management = section.getByRole('table', { name: `${name} management scores` });
    await expect(management).toHaveAccessibleName(
      `${name} management scores, added together up to the cap of ${shown(rules.managementCap)}`,
    );
    for (const [visit, score] of Object.entries(rules.lastDoctorVisitScores)) {
      await expect(figureOf(management, `Last doctor visit: ${visitLabels[visit]}`)).toHaveText(
        shown(score),
      );
    }
    for (const [duration, score] of Object.entries(rules.prescriptionDurationScores)) {
      await expect(
        figureOf(management, `Current prescription: ${prescriptionLabels[duration]}`),
      ).toHaveText(shown(score));
    }
  }

  // The trial version differs from the default in DM2's BMI weight alone, and the page shows it.
  await select.selectOption(trialVersion);
  const trial = await ruleSetData(page, trialVersion);
  const trialBmi = trial.conditions.DM2?.riskFactors.find((factor) => factor.name === 'BMI > 25');
  if (trialBmi === undefined) throw new Error('The trial version has no DM2 BMI factor');
  const dm2Factors = page
    .getByRole('region', { name: 'Type 2 Diabetes', exact: true })
    .getByRole('table', { name: 'Type 2 Diabetes risk factors' });
  await expect(figureOf(dm2Factors, 'BMI > 25')).toHaveText(
    `${shown(trialBmi.weight)} (${Math.round(trialBmi.weight * 100)}%)`,
  );
  await expect(page.getByText('Not active', { exact: true })).toBeVisible();
  // A nurse reads the rules but neither activates a version nor analyses its impact.
  await expect(page.getByRole('button', { name: 'Make active' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Impact analysis' })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/guidelines-wide.png' });
  await page
    .getByRole('region', { name: 'Type 2 Diabetes', exact: true })
    .screenshot({ path: 'test-results/guidelines-dm2.png' });

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/guidelines-narrow.png' });
});

test('an admin makes the trial version active through the dialog, then the default again', async ({
  page,
}) => {
  await signInAsAdmin(page);
  try {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Guidelines' })
      .click();
    const select = page.getByRole('combobox', { name: 'Guidelines version' });
    await expect(select).toHaveValue(defaultVersion);
    await expect(page.getByRole('button', { name: 'Make active' })).toHaveCount(0);
    await select.selectOption(trialVersion);
    await page.getByRole('button', { name: 'Make active' }).click();

    const dialog = page.getByRole('dialog', { name: `Make version ${trialVersion} active?` });
    await expect(dialog).toContainText(`(version ${trialVersion})`);
    await expect(dialog).toContainText('new saves will be scored with it');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/guidelines-activate.png' });
    await dialog.getByRole('button', { name: 'Make active' }).click();

    await expect(page.getByText('Guidelines version activated')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Active', { exact: true })).toBeVisible();
    await expect(page.getByText(/^Active since /)).toBeVisible();
    await expect(select.locator('option:checked')).toHaveText(/ \(active\)$/);
    const list = await page.request.get('/api/rule-sets');
    const versions = (await list.json()) as { version: string; active: boolean }[];
    expect(versions.filter((summary) => summary.active).map((summary) => summary.version)).toEqual([
      trialVersion,
    ]);

    // The default is now the one offered for activation.
    await select.selectOption(defaultVersion);
    await expect(page.getByText('Not active', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Make active' }).click();
    await page
      .getByRole('dialog', { name: `Make version ${defaultVersion} active?` })
      .getByRole('button', { name: 'Make active' })
      .click();
    await expect(page.getByText(/^Active since /)).toBeVisible();
  } finally {
    await setActive(page, defaultVersion);
  }
});

test('a doctor runs the impact analysis by keyboard, sees the progress, the matrices and the agreement, and downloads the CSV', async ({
  page,
}) => {
  await signInAsNewUser(page, 'doctor.guidelines', 'doctor');
  /** DM2 at High: thirst, family history and a BMI over 25 at 62. */
  const created = await page.request.post('/api/assessments', {
    data: {
      demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
      riskFactors: { smoking: false, familyHistory: { DM2: true } },
      symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  // The doctor agreed with DM2 at High: a review the agreement counts on both sides.
  const locked = await page.request.post(`/api/assessments/${id}/review/lock`, {
    data: { reviews: [{ condition: 'DM2', agreed: true, comments: '' }] },
  });
  expect(locked.status()).toBe(200);

  await page.goto(`/guidelines?version=${trialVersion}`);
  const panel = page.getByRole('region', { name: 'Impact analysis' });
  await expect(panel).toBeVisible();
  await panel.getByLabel('Start Date').fill('2020-02-01');
  await panel.getByLabel('End Date').fill('2020-01-01');
  await panel.getByRole('button', { name: 'Run impact analysis' }).focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByText('End Date must be on or after Start Date')).toBeVisible();
  await panel.getByLabel('Start Date').fill('');
  await panel.getByLabel('End Date').fill('');

  const expected = await page.request.post(`/api/rule-sets/${trialVersion}/impact`, { data: {} });
  expect(expected.status()).toBe(200);
  const impact = (await expected.json()) as ImpactData;
  expect(impact.assessments).toBeGreaterThan(0);

  await panel.getByRole('button', { name: 'Run impact analysis' }).focus();
  await page.keyboard.press('Enter');
  const progress = panel.getByRole('progressbar', { name: 'Impact analysis progress' });
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
  await expect(
    panel.getByText(`Re-scored ${impact.assessments} of ${impact.assessments} assessments`),
  ).toBeVisible();
  await expect(
    panel.getByText(/live assessments? of every date re-scored with Trial/),
  ).toBeVisible();

  const summary = panel.getByRole('table', { name: /^Changed statuses and agreement/ });
  expect(impact.conditions.DM2?.agreement.stored).toMatchObject({ reviews: 1, agreed: 1 });
  for (const [condition, figures] of Object.entries(impact.conditions)) {
    const name = conditionNames[condition] ?? condition;
    const card = panel.getByRole('region', { name, exact: true });
    await expect(card.getByText(`Changed: ${figures.changed}`)).toBeVisible();
    const matrix = card.getByRole('table', { name: `${name}: the stored status`, exact: false });
    for (const [stored, row] of Object.entries(figures.matrix)) {
      const cells = matrix
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: statusLabels[stored], exact: true }) })
        .getByRole('cell');
      await expect(cells).toHaveText(Object.values(row).map(String));
    }
    const agreement = card.getByRole('table', { name: `${name}: agreement`, exact: false });
    await expect(agreement.getByRole('rowheader')).toHaveText(['Stored', 'This version']);
    await expect(figureOf(agreement, 'Stored')).toHaveText(
      String(figures.agreement.stored.reviews),
    );
    await expect(figureOf(agreement, 'This version')).toHaveText(
      String(figures.agreement.new.reviews),
    );
    await expect(figureOf(summary, name)).toHaveText(String(figures.changed));
  }
  expect(await axeViolations(page)).toEqual([]);
  await panel.screenshot({ path: 'test-results/guidelines-impact.png' });

  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`rule-set-impact-${trialVersion}-start_end.csv`);
  const path = await file.path();
  const lines = (await readFile(path, 'utf8')).trimEnd().split(/\r?\n/);
  expect(lines[0]).toMatch(/^version,from,to,condition,stored_status,new_FALSE,/);
  // One row per condition and stored status.
  expect(lines).toHaveLength(1 + 6 * 5);
  const dm2High = lines.find((line) => line.includes(',DM2,TRUE,'));
  const highRow = impact.conditions.DM2?.matrix.TRUE ?? {};
  expect(dm2High).toContain(`,DM2,TRUE,${Object.values(highRow).join(',')},`);

  // A failure midway (the stream's error line) is said in place of the result.
  const failure = 'The database is not available. Please try again shortly.';
  await page.route(`**/api/rule-sets/${trialVersion}/impact`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/x-ndjson',
      body: [
        JSON.stringify({ progress: { done: 0, total: 2 } }),
        JSON.stringify({ error: { code: 'database_unavailable', message: failure } }),
        '',
      ].join('\n'),
    }),
  );
  await panel.getByRole('button', { name: 'Run impact analysis' }).click();
  await expect(panel.getByRole('alert')).toHaveText(`The impact analysis failed${failure}`);
  await expect(panel.getByRole('button', { name: 'Download CSV' })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
});
