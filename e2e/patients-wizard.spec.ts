import { type Locator, type Page } from '@playwright/test';
import {
  answer,
  enterCase1AfterDemographics,
  case1,
  expectCase1Results,
  expectHeading,
  question,
  signInAsNurse,
  stepButton,
  wcagViolations,
} from './assessment-fixtures.ts';
import { expect, test } from './page-checks.ts';

// Each test walks through several steps and server calls.
test.describe.configure({ timeout: 120_000 });

// Other suites' runs empty test-results; SCREENSHOT_DIR keeps the pictures elsewhere to look at.
const screenshotDir = process.env.SCREENSHOT_DIR ?? 'test-results';

/** The fixed footer would otherwise be drawn across the pictures. */
const style = '.mantine-AppShell-footer { position: static !important; }';

function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

interface StoredPatient {
  id: string;
  number: string;
  name: string | null;
  birthDate: string | null;
  age: number | null;
  gender: string | null;
  lastHeight: number | null;
}

/** A patient number no other test of this run uses. */
function uniqueNumber(prefix: string): string {
  return `${prefix}-${Date.now().toString(36).toUpperCase()}`;
}

function patientNumberField(page: Page): Locator {
  return page.getByRole('combobox', { name: 'Patient number' });
}

function patientOption(page: Page, label: string): Locator {
  return page.getByRole('option', { name: label, exact: true });
}

async function patientById(page: Page, id: string): Promise<StoredPatient> {
  const response = await page.request.get(`/api/patients/${id}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as StoredPatient;
}

/** The date as the app shows it: the browser's own medium date and time. */
function shownDate(page: Page, iso: string): Promise<string> {
  return page.evaluate(
    (instant) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(
        new Date(instant),
      ),
    iso,
  );
}

async function expectFilledFrom(page: Page, patient: StoredPatient, height: string) {
  await expect(page.getByRole('textbox', { name: 'Age' })).toHaveValue(String(patient.age));
  await expect(question(page, 'Gender').getByRole('radio', { name: 'Female' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Height (cm)' })).toHaveValue(height);
}

test('a patient picked in step 1 fills the demographics, and the next assessment shows what changed since the last', async ({
  page,
}) => {
  await signInAsNurse(page);
  const number = uniqueNumber('PW');
  const created = await page.request.post('/api/patients', {
    data: { number, name: 'Thandi Mokoena', birthDate: '1968-04-02', gender: 'Female' },
  });
  expect(created.status()).toBe(201);
  const patient = (await created.json()) as StoredPatient;
  const label = `${number} — Thandi Mokoena`;

  // First assessment: the search finds the record by the start of its number; a click picks it.
  await page.goto('/assessments/new');
  await expectHeading(page, 'Patient Demographics');
  const numberField = patientNumberField(page);
  await numberField.fill(number.slice(0, -2));
  await expect(patientOption(page, label)).toBeVisible();
  await expect(numberField).toHaveAttribute('aria-expanded', 'true');
  await page.screenshot({ path: `${screenshotDir}/patients-wizard-step1-search.png`, style });
  expect(await wcagViolations(page)).toEqual([]);
  await patientOption(page, label).click();
  await expect(numberField).toHaveValue(number);
  await expect(patientOption(page, label)).toHaveCount(0);
  await expect(page.getByText(`Patient record: ${label}.`)).toBeVisible();
  // A new record has no height yet: only gender and age are filled.
  await expectFilledFrom(page, patient, '');
  await expect(page.getByRole('group', { name: 'New patient' })).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Height (cm)' }).fill('165');
  await page.getByRole('textbox', { name: 'Weight (kg)' }).fill('80');
  await enterCase1AfterDemographics(page);

  await expectHeading(page, 'Results');
  await expectCase1Results(page);
  const patientPanel = page.getByRole('region', { name: 'Patient', exact: true });
  await expect(patientPanel.getByRole('link', { name: label })).toHaveAttribute(
    'href',
    `/patients/${patient.id}`,
  );
  await expect(patientPanel).toContainText("This is the patient's first assessment.");
  await expect(page.getByRole('heading', { name: 'Since the last assessment' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText('Assessment saved successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/assessments\/[0-9a-f-]{36}\?step=5$/);
  const firstId = /\/assessments\/([^/?]+)/.exec(page.url())?.[1] ?? '';
  const first = (await (await page.request.get(`/api/assessments/${firstId}`)).json()) as {
    createdAt: string;
    patient: { id: string } | null;
  };
  expect(first.patient?.id).toBe(patient.id);

  // Second assessment, by keyboard alone: type, arrow down to the record, Enter.
  await page.goto('/assessments/new');
  await expectHeading(page, 'Patient Demographics');
  await patientNumberField(page).focus();
  await page.keyboard.type(number);
  await expect(patientOption(page, label)).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(patientOption(page, label)).toHaveAttribute('data-combobox-selected', 'true');
  await expect(patientNumberField(page)).toHaveAttribute(
    'aria-activedescendant',
    (await patientOption(page, label).getAttribute('id')) ?? '',
  );
  await page.keyboard.press('Enter');
  await expect(patientNumberField(page)).toHaveValue(number);
  await expect(patientNumberField(page)).toBeFocused();
  // The height measured at the first assessment starts the second; all stay editable.
  const withHeight = await patientById(page, patient.id);
  expect(withHeight.lastHeight).toBe(165);
  await expectFilledFrom(page, withHeight, '165');
  await page.getByRole('textbox', { name: 'Weight (kg)' }).fill('90');

  // The choice survives a reload (the draft of the tab).
  await page.reload();
  await expect(patientNumberField(page)).toHaveValue(number);
  await expect(page.getByText(`Patient record: ${label}.`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Weight (kg)' })).toHaveValue('90');

  await stepButton(page, 'Results').click();
  await expectHeading(page, 'Results');
  const sinceLast = page.getByRole('region', { name: 'Since the last assessment', exact: true });
  await expect(sinceLast).toContainText(
    `Compared with the assessment of ${await shownDate(page, first.createdAt)}`,
  );
  await expect(sinceLast).toContainText('BMI 29.4 then, 33.1 now: +3.7');
  const rows = sinceLast.getByRole('row');
  for (const condition of case1.conditions) {
    const row = rows.filter({ has: page.getByRole('rowheader', { name: condition.name }) });
    await expect(row.getByRole('cell').nth(0)).toHaveText(condition.status);
    await expect(row.getByRole('cell').nth(2)).toHaveText(/^([+\u2212]\d+\.\d{4}|no change)$/);
  }
  // Hypertension was diagnosed then and is not managed now: 4.8000 to 0.0000.
  const hypertension = rows.filter({ has: page.getByRole('rowheader', { name: 'Hypertension' }) });
  await expect(hypertension.getByRole('cell').nth(2)).toHaveText('\u22124.8000');
  expect(await wcagViolations(page)).toEqual([]);
  await sinceLast.screenshot({ path: `${screenshotDir}/patients-wizard-since-last.png`, style });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${screenshotDir}/patients-wizard-results.png`, style });
  // On a phone the table scrolls inside its own box; the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => horizontalOverflow(page)).toBe(0);
  expect(await wcagViolations(page)).toEqual([]);
  await sinceLast.screenshot({
    path: `${screenshotDir}/patients-wizard-since-last-narrow.png`,
    style,
  });
  await page.setViewportSize({ width: 1366, height: 768 });

  // Saved, the comparison is the server's and stays the same.
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText('Assessment saved successfully!')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Results as saved on the server')).toBeVisible();
  await expect(sinceLast).toContainText('BMI 29.4 then, 33.1 now: +3.7');
  await expect(hypertension.getByRole('cell').nth(0)).toHaveText('Diagnosed');

  // The patient page's 'Start New Assessment' links here: the record is chosen from the start.
  await page.goto(`/assessments/new?patient=${patient.id}`);
  await expectHeading(page, 'Patient Demographics');
  await expect(page).toHaveURL(/\/assessments\/new\?step=1$/);
  await expect(patientNumberField(page)).toHaveValue(number);
  await expectFilledFrom(page, withHeight, '165');
});

test('a number no record has offers a new patient, made with the assessment', async ({ page }) => {
  await signInAsNurse(page);
  const number = uniqueNumber('NP');
  await page.goto('/assessments/new');
  await expectHeading(page, 'Patient Demographics');
  await patientNumberField(page).fill(number);
  await expect(page.getByText('No patient has a number or name starting with this.')).toBeVisible();
  const newPatientOption = patientOption(page, `New patient with the number ${number}`);
  await expect(newPatientOption).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}/patients-wizard-step1-no-match.png`, style });
  expect(await wcagViolations(page)).toEqual([]);

  // A number left neither chosen nor made new is not saved as either: the wizard asks.
  await page.getByRole('textbox', { name: 'Age' }).focus();
  const choose = "Choose the patient from the list, or 'New patient' if they have no record yet";
  await expect(page.getByText(choose)).toBeVisible();
  await page.getByRole('textbox', { name: 'Age' }).fill('45');
  await answer(page, 'Gender', 'Male');
  await page.getByRole('textbox', { name: 'Height (cm)' }).fill('180');
  await page.getByRole('textbox', { name: 'Weight (kg)' }).fill('75');
  await stepButton(page, 'Results').click();
  await expectHeading(page, 'Results');
  await expect(
    page.getByText(`Before saving, correct the patient in the demographics: ${choose}.`),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Assessment' })).toBeDisabled();
  await stepButton(page, 'Demographics').click();
  await patientNumberField(page).focus();
  await expect(newPatientOption).toBeVisible();
  await newPatientOption.click();
  await expect(page.getByText(choose)).toHaveCount(0);
  const newPatient = page.getByRole('group', { name: 'New patient' });
  await expect(newPatient).toContainText(
    `A new patient record is made with the number ${number} when the assessment is saved.`,
  );
  await newPatient.getByRole('textbox', { name: 'Name' }).fill('Sipho Dlamini');
  const birthDate = newPatient.getByLabel('Date of birth');
  await birthDate.fill('2999-01-01');
  await expect(newPatient.getByText('The date of birth cannot be in the future')).toBeVisible();
  await birthDate.fill('1980-05-02');
  await expect(newPatient.getByText('The date of birth cannot be in the future')).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Age' }).focus();
  await page.screenshot({
    path: `${screenshotDir}/patients-wizard-step1-new-patient.png`,
    style,
  });
  expect(await wcagViolations(page)).toEqual([]);

  // The new patient's details survive a reload.
  await page.reload();
  await expect(patientNumberField(page)).toHaveValue(number);
  await expect(newPatient.getByRole('textbox', { name: 'Name' })).toHaveValue('Sipho Dlamini');
  await expect(newPatient.getByLabel('Date of birth')).toHaveValue('1980-05-02');

  await stepButton(page, 'Results').click();
  await expectHeading(page, 'Results');
  const patientPanel = page.getByRole('region', { name: 'Patient', exact: true });
  await expect(patientPanel).toContainText(`${number} — Sipho Dlamini`);
  await expect(patientPanel).toContainText(
    'A new patient record is made when the assessment is saved.',
  );
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText('Assessment saved successfully!')).toBeVisible();

  const link = patientPanel.getByRole('link', { name: `${number} — Sipho Dlamini` });
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/^\/patients\/[0-9a-f-]{36}$/);
  const stored = await patientById(page, href.slice('/patients/'.length));
  expect(stored).toMatchObject({
    number,
    name: 'Sipho Dlamini',
    birthDate: '1980-05-02',
    gender: 'Male',
    lastHeight: 180,
  });
  await expect(patientPanel).not.toContainText('A new patient record is made');
  await expect(page.getByRole('button', { name: 'Assessment Saved' })).toBeDisabled();

  // The number is now on record: typed again, it is chosen from the list, not made again.
  await page.goto('/assessments/new');
  await patientNumberField(page).fill(number.toLowerCase());
  await expect(patientOption(page, `${number} — Sipho Dlamini`)).toBeVisible();
  await expect(
    page.getByText('A patient already has this number: choose them from the list.'),
  ).toBeVisible();
  await expect(page.getByRole('group', { name: 'New patient' })).toHaveCount(0);

  // Without a patient number, the assessment is as anonymous as before.
  await patientNumberField(page).fill('');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'New patient' })).toHaveCount(0);
});

test.describe("a new patient's date of birth on a device in another time zone", () => {
  // The device's calendar is a day off the clinic's (UTC on the test server) whenever this runs:
  // from 11:00 UTC on, Kiritimati (UTC+14) is a day ahead; before it, UTC-12 is a day behind.
  const deviceZone = new Date().getUTCHours() >= 11 ? 'Pacific/Kiritimati' : 'Etc/GMT+12';
  test.use({ timezoneId: deviceZone });

  test('fills Age with the years on the clinic’s calendar, and Age stays editable', async ({
    page,
  }) => {
    await signInAsNurse(page);
    const number = uniqueNumber('DOB');
    await page.goto('/assessments/new');
    await expectHeading(page, 'Patient Demographics');
    await patientNumberField(page).fill(number);
    await patientOption(page, `New patient with the number ${number}`).click();

    // Born 40 years before the later of the two calendars' today: one year apart between them.
    const clinicToday = new Date().toISOString().slice(0, 10);
    const deviceToday = await page.evaluate(() => {
      const now = new Date();
      const month = String(now.getMonth() + 1).padStart(2, '0');
      return `${now.getFullYear()}-${month}-${String(now.getDate()).padStart(2, '0')}`;
    });
    expect(deviceToday).not.toBe(clinicToday);
    const later = deviceToday > clinicToday ? deviceToday : clinicToday;
    const birthDate = `${Number(later.slice(0, 4)) - 40}${later.slice(4)}`;
    const clinicAge = clinicToday === later ? 40 : 39;

    const age = page.getByRole('textbox', { name: 'Age' });
    await age.fill('25');
    const newPatient = page.getByRole('group', { name: 'New patient' });
    await newPatient.getByLabel('Date of birth').fill(birthDate);
    await expect(age).toHaveValue(String(clinicAge));
    await expect(age).not.toHaveAttribute('aria-invalid', 'true');

    // The filled age is the nurse's to correct; the date of birth is kept as entered.
    await age.fill(String(clinicAge + 1));
    await expect(age).toHaveValue(String(clinicAge + 1));
    await expect(newPatient.getByLabel('Date of birth')).toHaveValue(birthDate);

    // A date of birth that cannot be fills nothing.
    await newPatient.getByLabel('Date of birth').fill('2999-01-01');
    await expect(newPatient.getByText('The date of birth cannot be in the future')).toBeVisible();
    await expect(age).toHaveValue(String(clinicAge + 1));
  });
});
