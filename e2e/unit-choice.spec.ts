import type { BrowserContext, Page } from '@playwright/test';
import {
  enterCase1AfterDemographics,
  enterCase1Demographics,
  expectHeading,
  wcagViolations,
} from './assessment-fixtures.ts';
import { adminPassword, adminUsername, signIn, signOut } from './fixtures.ts';
import { startOwnServer, type OwnServer } from './own-server.ts';
import { expect, test } from './page-checks.ts';

/**
 * A nurse who works at two facilities chooses in step 1 where the assessment is done; a nurse of
 * one facility is asked nothing. Units and users are made through the API on a server of this
 * test's own (a tree of several units makes every new user name their units).
 */
let server: OwnServer;
test.beforeAll(async () => {
  server = await startOwnServer({});
});
test.afterAll(async () => {
  await server.stop();
});

// Each test enters whole assessments. The network is dropped just for a save, which the service
// worker (offline.spec.ts) has no part in.
test.describe.configure({ timeout: 90_000 });
test.use({ serviceWorkers: 'block' });

const password = 'willow-anchor-pebble-sky-83';
const twoUnits = { username: 'nurse.two', displayName: 'Nia Two' };
const oneUnit = { username: 'nurse.one', displayName: 'Ona One' };
const patientNumber = 'BIRCH-0001';
const codePattern = /ASS-[0-9A-Z]+-[0-9A-Z]{4}/;
const unitMissing = 'Choose the unit where the assessment is done.';
const demographicsMissing =
  'Enter an age from 1 to 120, a gender, a height and a weight to continue.';

interface Unit {
  id: string;
  code: string;
}

let alder: Unit;
let birch: Unit;

async function api(page: Page, method: 'GET' | 'POST', path: string, data?: object) {
  const response = await page.request.fetch(`${server.url}${path}`, { method, data });
  expect(response.status(), `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as unknown;
}

async function addUnit(page: Page, code: string, name: string, parentId: string): Promise<Unit> {
  return (await api(page, 'POST', '/api/org-units', { code, name, parentId })) as Unit;
}

/**
 * Once per server, as the administrator: Alder Clinic with a closed unit below it, Birch Clinic,
 * a nurse of both and a nurse of Birch alone.
 */
async function makeUnitsAndNurses(page: Page): Promise<void> {
  await page.goto(server.url);
  await signIn(page, adminUsername, adminPassword);
  const tree = (await api(page, 'GET', '/api/org-units')) as { items: Unit[] };
  const main = tree.items.find((unit) => unit.code === 'MAIN');
  if (main === undefined) throw new Error('The tree has no MAIN unit');
  alder = await addUnit(page, 'F-A', 'Alder Clinic', main.id);
  const old = await addUnit(page, 'F-A-OLD', 'Old Alder Post', alder.id);
  await api(page, 'POST', `/api/org-units/${old.id}/close`);
  birch = await addUnit(page, 'F-B', 'Birch Clinic', main.id);
  for (const [nurse, units] of [
    [twoUnits, [alder.id, birch.id]],
    [oneUnit, [birch.id]],
  ] as const) {
    await api(page, 'POST', '/api/users', { ...nurse, role: 'nurse', password, units });
  }
  await signOut(page);
}

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await makeUnitsAndNurses(page);
  await page.close();
});

async function startAssessment(page: Page): Promise<string> {
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('link', { name: 'Start New Assessment' }).click();
  await expectHeading(page, 'Patient Demographics');
  const code = codePattern.exec((await page.getByText(codePattern).first().textContent()) ?? '');
  expect(code).not.toBeNull();
  return code?.[0] ?? '';
}

/** The codes of the assessments an administrator finds at one unit (`?unit=`). */
async function codesAt(context: BrowserContext, unit: Unit): Promise<(string | null)[]> {
  const response = await context.request.get(`${server.url}/api/assessments?unit=${unit.id}`);
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: { code: string | null }[] };
  return items.map((item) => item.code);
}

/** The numbers of the patient records an administrator finds at one unit. */
async function patientsAt(context: BrowserContext, unit: Unit): Promise<string[]> {
  const response = await context.request.get(`${server.url}/api/patients?unit=${unit.id}`);
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: { number: string }[] };
  return items.map((item) => item.number);
}

test('a nurse of two facilities chooses the unit in step 1; the saved assessment belongs to it', async ({
  page,
  context,
}) => {
  await page.goto(server.url);
  await signIn(page, twoUnits.username, password);
  const firstCode = await startAssessment(page);

  // Nothing is chosen at first: Continue waits for the unit as for the demographics, and says so.
  const unit = page.getByRole('combobox', { name: 'Unit' });
  const next = page.getByRole('button', { name: 'Continue to Risk Factors' });
  await expect(unit).toHaveValue('');
  await expect(next).toBeDisabled();
  await expect(page.getByText(demographicsMissing)).toBeVisible();
  await expect(page.getByText(unitMissing)).toBeVisible();
  await enterCase1Demographics(page);
  await expect(page.getByText(demographicsMissing)).toHaveCount(0);
  await expect(page.getByText(unitMissing)).toBeVisible();
  await expect(next).toBeDisabled();

  // By keyboard: the open units within her scope are offered by name and code, not the closed one.
  await unit.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option')).toHaveText(['Alder Clinic (F-A)', 'Birch Clinic (F-B)']);
  await page.screenshot({ path: 'test-results/unit-choice-step-1-open.png' });
  await page.keyboard.type('Birch');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(unit).toHaveValue('Birch Clinic (F-B)');
  await expect(page.getByText(unitMissing)).toHaveCount(0);
  await expect(next).toBeEnabled();
  await page.screenshot({ path: 'test-results/unit-choice-step-1.png', fullPage: true });
  expect(await wcagViolations(page)).toEqual([]);

  // A new patient made with the assessment is registered at the same unit.
  await page.getByRole('combobox', { name: 'Patient number' }).fill(patientNumber);
  await page
    .getByRole('option', { name: `New patient with the number ${patientNumber}`, exact: true })
    .click();
  await enterCase1AfterDemographics(page);
  await expectHeading(page, 'Results');
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText('Assessment saved successfully!')).toBeVisible();

  // The next assessment starts at the unit chosen last on this device; this one is done at
  // Alder and saved while the network is down: the unit travels with the save in the outbox.
  const secondCode = await startAssessment(page);
  await expect(unit).toHaveValue('Birch Clinic (F-B)');
  await unit.click();
  await page.getByRole('option', { name: 'Alder Clinic (F-A)' }).click();
  await expect(unit).toHaveValue('Alder Clinic (F-A)');
  await enterCase1Demographics(page);
  await enterCase1AfterDemographics(page);
  await expectHeading(page, 'Results');
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText(/will upload by itself/).first()).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByText('An assessment saved offline was uploaded.')).toBeVisible();

  // As an administrator: each assessment belongs to the unit chosen for it, and to no other.
  await signOut(page);
  await signIn(page, adminUsername, adminPassword);
  const atBirch = await codesAt(context, birch);
  const atAlder = await codesAt(context, alder);
  expect(atBirch).toContain(firstCode);
  expect(atBirch).not.toContain(secondCode);
  expect(atAlder).toContain(secondCode);
  expect(atAlder).not.toContain(firstCode);
  expect(await patientsAt(context, birch)).toEqual([patientNumber]);
  expect(await patientsAt(context, alder)).toEqual([]);
});

test('a nurse of one facility is not asked for the unit', async ({ page, context }) => {
  await page.goto(server.url);
  await signIn(page, oneUnit.username, password);
  // Asked nothing once the tree within her scope is read: it holds Birch Clinic alone.
  const treeRead = page.waitForResponse((response) => response.url().endsWith('/api/org-units'));
  const code = await startAssessment(page);
  expect((await treeRead).status()).toBe(200);
  await expect(page.getByRole('textbox', { name: 'Age' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Unit' })).toHaveCount(0);
  await expect(page.getByText(unitMissing)).toHaveCount(0);
  await enterCase1Demographics(page);
  await expect(page.getByRole('button', { name: 'Continue to Risk Factors' })).toBeEnabled();
  await enterCase1AfterDemographics(page);
  await page.getByRole('button', { name: 'Save Assessment' }).click();
  await expect(page.getByText('Assessment saved successfully!')).toBeVisible();

  await signOut(page);
  await signIn(page, adminUsername, adminPassword);
  expect(await codesAt(context, birch)).toContain(code);
});
