import { type APIRequestContext, type Page } from '@playwright/test';
import { adminPassword, adminUsername, signIn, signOut } from './fixtures.ts';
import { startOwnServer, type OwnServer } from './own-server.ts';
import { expect, test } from './page-checks.ts';

/**
 * A district's roll-up (issue 36). Users here work in units other than MAIN, so the test has a
 * server of its own, as user-units.spec.ts does.
 */
let server: OwnServer;
test.beforeAll(async () => {
  server = await startOwnServer({});
});
test.afterAll(async () => {
  await server.stop();
});

interface Unit {
  id: string;
  code: string;
}

const password = 'tidal-marble-orchard-lamp-53';

/** DM2 at High (thirst, family history, BMI over 25). */
const highRisk = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { smoking: false, familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
};
/** Every condition Low. */
const lowRisk = {
  demographics: { age: 30, gender: 'Female', height: 165, weight: 60 },
  riskFactors: {},
};

async function signInByRequest(request: APIRequestContext, username: string, secret: string) {
  const response = await request.post(`${server.url}/api/session`, {
    data: { username, password: secret },
  });
  expect(response.status()).toBe(200);
}

async function addUnit(request: APIRequestContext, code: string, name: string, parentId: string) {
  const created = await request.post(`${server.url}/api/org-units`, {
    data: { code, name, parentId },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as Unit;
}

async function addUser(
  request: APIRequestContext,
  username: string,
  role: 'nurse' | 'manager',
  unit: Unit,
) {
  const created = await request.post(`${server.url}/api/users`, {
    data: { username, displayName: username, role, password, units: [unit.id] },
  });
  expect(created.status()).toBe(201);
}

/** Saves the assessments as a nurse of the unit (signed in through the page's cookies). */
async function saveAs(page: Page, username: string, bodies: object[]) {
  await signInByRequest(page.request, username, password);
  for (const body of bodies) {
    const saved = await page.request.post(`${server.url}/api/assessments`, { data: body });
    expect(saved.status()).toBe(201);
  }
}

test('a district manager follows a facility from the roll-up to its figures; the top drills down', async ({
  page,
}) => {
  // A district with two facilities, and a second district; saves in each facility.
  await signInByRequest(page.request, adminUsername, adminPassword);
  const tree = (await (await page.request.get(`${server.url}/api/org-units`)).json()) as {
    items: Unit[];
  };
  const main = tree.items.find((unit) => unit.code === 'MAIN');
  if (main === undefined) throw new Error('The tree has no MAIN unit');
  const north = await addUnit(page.request, 'NORTH', 'North district', main.id);
  const south = await addUnit(page.request, 'SOUTH', 'South district', main.id);
  const river = await addUnit(page.request, 'RIVER', 'Riverside clinic', north.id);
  const hill = await addUnit(page.request, 'HILL', 'Hilltop clinic', north.id);
  const coast = await addUnit(page.request, 'COAST', 'Coast clinic', south.id);
  await addUser(page.request, 'nurse.river', 'nurse', river);
  await addUser(page.request, 'nurse.hill', 'nurse', hill);
  await addUser(page.request, 'nurse.coast', 'nurse', coast);
  await addUser(page.request, 'manager.north', 'manager', north);
  await saveAs(page, 'nurse.river', [highRisk, highRisk, lowRisk]);
  await saveAs(page, 'nurse.hill', [lowRisk]);
  await saveAs(page, 'nurse.coast', [highRisk, highRisk, highRisk, highRisk]);
  await page.context().clearCookies();

  await page.goto(server.url);
  await signIn(page, 'manager.north', password);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'District' })
    .click();
  await expect(page.getByRole('heading', { name: 'District' })).toBeVisible();
  // The manager's district opens by itself: its two facilities, nothing of the other district.
  await expect(page.getByText('North district (NORTH)', { exact: true })).toBeVisible();
  const table = page.getByRole('region', { name: 'Units of North district' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(3);
  const riverRow = rows.filter({ has: page.getByRole('rowheader', { name: /Riverside clinic/ }) });
  const hillRow = rows.filter({ has: page.getByRole('rowheader', { name: /Hilltop clinic/ }) });
  await expect(riverRow.getByRole('cell').first()).toHaveText('3');
  // Type 2 Diabetes: two at High, none at Moderate.
  await expect(riverRow.getByRole('cell').nth(1)).toHaveText('High 2 · , Moderate 0');
  await expect(hillRow.getByRole('cell').first()).toHaveText('1');
  await expect(table).not.toContainText('Coast clinic');
  await page.screenshot({ path: 'test-results/district-summary.png', fullPage: true });

  // By keyboard: the facility's dashboard link.
  await riverRow.getByRole('link', { name: 'Dashboard of Riverside clinic (RIVER)' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`\\?unit=${river.id}$`));
  await expect(page.getByText('Showing Riverside clinic (RIVER)')).toBeVisible();
  const overview = page.getByRole('region', { name: 'Population Risk Overview' });
  await expect(overview).toContainText('for the 3 assessments in the current search and dates');
  await page.screenshot({ path: 'test-results/district-dashboard-unit.png', fullPage: true });

  // The way back: all the manager's units, the district's four assessments.
  await page.getByRole('link', { name: 'Show all my units' }).click();
  await expect(page.getByText('Showing Riverside clinic (RIVER)')).toBeHidden();
  await expect(overview).toContainText('for the 4 assessments in the current search and dates');

  // The administrator's roll-up opens at the top: a district drills down to its facilities, by
  // keyboard, and the way up leads back.
  await signOut(page);
  await signIn(page, adminUsername, adminPassword);
  await page.goto(`${server.url}/district`);
  await expect(page.getByText('Main clinic (MAIN)', { exact: true })).toBeVisible();
  const top = page.getByRole('region', { name: 'Units of Main clinic' });
  const southRow = top
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: /South district/ }) });
  await expect(southRow.getByRole('cell').first()).toHaveText('4');
  await top.getByRole('link', { name: 'Roll-up of North district (NORTH)' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/district/${north.id}$`));
  await expect(page.getByRole('region', { name: 'Units of North district' })).toBeVisible();
  await page.getByRole('link', { name: 'Up one level' }).click();
  await expect(page).toHaveURL(new RegExp(`/district/${main.id}$`));
  await expect(top).toBeVisible();
});
