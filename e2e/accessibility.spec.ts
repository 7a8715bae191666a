import type { Page } from '@playwright/test';
import { enterCase1, expectHeading, nurse, signInAsNurse } from './assessment-fixtures.ts';
import { signInAsAdmin, unlockDevice } from './fixtures.ts';
import {
  animationsFinished,
  expect,
  expectAccessible,
  seriousViolations,
  test,
  truncatedTexts,
  waitForInstalledApp,
} from './page-checks.ts';

// Every page in each of its states, twice (desktop and phone), with axe each time.
test.describe.configure({ timeout: 300_000 });

/** Every risk status at once: DM2 High, HIV Moderate, TB Low, Hypertension Diagnosed. */
const everyStatus = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { smoking: false, familyHistory: { DM2: true }, householdTBExposure: false },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
  management: { Hypertension: { diagnosed: true } },
};
/** No weight or age: no BMI, and Insufficient Data where a rule reads them. */
const incomplete = {
  demographics: { gender: 'Male', height: 170 },
  riskFactors: { familyHistory: { DM2: true } },
};

interface Seeded {
  patientId: string;
  patientNumber: string;
  lockedId: string;
  openId: string;
  deletableCode: string;
}

/** A patient with an incomplete and a locked assessment, one awaiting review, one to delete. */
async function seed(page: Page): Promise<Seeded> {
  const patientNumber = `AX-${Date.now().toString(36).toUpperCase()}`;
  const patient = await page.request.post('/api/patients', {
    data: { number: patientNumber, name: 'Ada Axe', birthDate: '1964-05-17', gender: 'Female' },
  });
  expect(patient.status()).toBe(201);
  const { id: patientId } = (await patient.json()) as { id: string };
  const create = async (body: object) => {
    const response = await page.request.post('/api/assessments', { data: body });
    expect(response.status()).toBe(201);
    return (await response.json()) as { id: string; code: string };
  };
  const signOff = async (id: string) => {
    const response = await page.request.post(`/api/assessments/${id}/sign-off`, {
      headers: { 'if-match': '"1"' },
    });
    expect(response.status()).toBe(200);
  };
  await create({ ...incomplete, patientId });
  const locked = await create({ ...everyStatus, patientId });
  await signOff(locked.id);
  const lock = await page.request.post(`/api/assessments/${locked.id}/review/lock`, {
    data: { reviews: [{ condition: 'DM2', agreed: true, comments: '' }] },
  });
  expect(lock.status()).toBe(200);
  const open = await create({ ...everyStatus, patientId });
  await signOff(open.id);
  const deletable = await create(incomplete);
  return {
    patientId,
    patientNumber,
    lockedId: locked.id,
    openId: open.id,
    deletableCode: deletable.code,
  };
}

/** Opens a page and waits for its heading and for its loading texts to go. */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
}

/** Each page, named by the screenshot it leaves, and whether its labels must fit (issue 34). */
function pagesOf(seeded: Seeded): Array<{ path: string; name: string; labelsFit: boolean }> {
  return [
    { path: '/', name: 'dashboard', labelsFit: true },
    { path: `/patients/${seeded.patientId}`, name: 'patient', labelsFit: true },
    { path: `/assessments/${seeded.lockedId}`, name: 'results', labelsFit: false },
    { path: `/assessments/${seeded.openId}/review`, name: 'review', labelsFit: true },
    { path: `/assessments/${seeded.lockedId}/review`, name: 'review-locked', labelsFit: true },
    { path: `/assessments/${seeded.lockedId}/report`, name: 'report', labelsFit: false },
    { path: '/assessments/new', name: 'new-assessment', labelsFit: false },
    { path: '/worklists/review', name: 'awaiting-review', labelsFit: true },
    { path: '/worklists/follow-up', name: 'follow-up', labelsFit: true },
    { path: '/district', name: 'district', labelsFit: true },
    { path: '/guidelines', name: 'guidelines', labelsFit: false },
    { path: '/admin/users', name: 'users', labelsFit: false },
    { path: '/admin/audit', name: 'audit', labelsFit: true },
    { path: '/codes', name: 'codes', labelsFit: false },
    { path: '/account/second-factor', name: 'second-factor', labelsFit: false },
    { path: '/no-such-page', name: 'not-found', labelsFit: false },
  ];
}

for (const viewport of [
  { name: 'desktop', width: 1366, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('every page has no critical or serious axe violation, and its labels fit', async ({
      page,
    }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Secure Access Required' })).toBeVisible();
      await expectAccessible(page);
      await signInAsAdmin(page);
      const seeded = await seed(page);

      // Every page is seen before the test says what failed.
      const found: Array<{ name: string; violations?: unknown; truncated?: string[] }> = [];
      for (const { path, name, labelsFit } of pagesOf(seeded)) {
        await visit(page, path);
        await page.screenshot({
          path: `test-results/axe-${name}-${viewport.name}.png`,
          fullPage: true,
        });
        const violations = await seriousViolations(page);
        if (violations.length > 0) found.push({ name, violations });
        const truncated = labelsFit ? await truncatedTexts(page) : [];
        if (truncated.length > 0) found.push({ name, truncated });
      }
      expect(found).toEqual([]);
    });

    test('open dialogs and notifications, and hovered and focused navigation, pass axe', async ({
      page,
    }) => {
      await signInAsAdmin(page);
      const seeded = await seed(page);
      await visit(page, '/');
      const row = page
        .getByRole('list', { name: 'Assessments' })
        .getByRole('listitem')
        .filter({ hasText: seeded.deletableCode });

      // The delete dialog, then the notification that the delete leaves.
      await row.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete assessment' });
      await expect(dialog).toBeVisible();
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Delete' }).click();
      const notification = page.getByRole('alert').filter({ hasText: 'deleted' });
      await expect(notification).toBeVisible();
      await expect(notification.getByRole('button', { name: 'Close notification' })).toBeVisible();
      await expectAccessible(page);

      // The navigation: the active item hovered, then another focused from the keyboard.
      const navigation = page.getByRole('navigation', { name: 'Main' });
      const burger = page.getByRole('button', { name: 'Navigation' });
      if (await burger.isVisible()) {
        await burger.click();
        await expect.poll(async () => (await navigation.boundingBox())?.x).toBe(0);
        await expectAccessible(page);
      }
      await navigation.getByRole('link', { name: 'Dashboard' }).hover();
      await expectAccessible(page);
      await navigation.getByRole('link', { name: 'Guidelines' }).focus();
      await expectAccessible(page);
      await navigation.getByRole('link', { name: 'Guidelines' }).hover();
      await expectAccessible(page);

      // A review's finalize dialog.
      await visit(page, `/assessments/${seeded.openId}/review`);
      await page.getByRole('button', { name: 'Finalize Doctor Review' }).click();
      await expect(page.getByRole('dialog', { name: 'Finalize Doctor Review' })).toBeVisible();
      await expectAccessible(page);
      await page.keyboard.press('Escape');

      // The user menu, open.
      if (!(await burger.isVisible())) {
        await page.getByRole('button', { name: /Administrator/ }).click();
        await expect(page.getByRole('menu')).toBeVisible();
        await animationsFinished(page);
        await expectAccessible(page);
        await page.keyboard.press('Escape');
      }
    });

    test('the badge of saves waiting to upload passes axe', async ({ page, context }) => {
      await signInAsNurse(page);
      await waitForInstalledApp(page);
      await context.setOffline(true);
      await page.goto('/assessments/new');
      await expectHeading(page, 'Patient Demographics');
      // A full page load locks what the device keeps until the password is typed: that panel too.
      const unlock = page.getByRole('region', { name: 'Unlock what is kept on this device' });
      await expect(unlock).toBeVisible();
      await expectAccessible(page);
      await unlockDevice(page, nurse.password);
      await expect(unlock).toHaveCount(0);
      await enterCase1(page);
      await page.getByRole('button', { name: 'Save Assessment' }).click();
      await expect(page.getByTestId('outbox-badge')).toHaveText('1 to upload');
      await page.mouse.move(0, 400);
      await expectAccessible(page);
      await page.getByTestId('outbox-badge').hover();
      await expectAccessible(page);
      // Back online the save uploads: the server's copy is this test's only trace.
      await context.setOffline(false);
      await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
    });
  });
}
