import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { adminPassword, adminUsername, signIn } from './fixtures.ts';
import { startOwnServer, type OwnServer } from './own-server.ts';
import { expect, test, waitForInstalledApp } from './page-checks.ts';

/**
 * A new version of the app reaches a browser that has the old one installed: the service worker
 * that precached the old one stays in charge until the user chooses Reload, and the app says
 * when the new one is ready. The server serves a copy of the built app, so that the test can
 * publish a "new version" (a changed service worker, as every build with changed files makes)
 * without touching the files the other tests are served.
 */
const builtApp = process.env.WEB_ROOT ?? path.resolve('dist/web');
const updateReady = 'A new version is ready.';

let server: OwnServer;
let webRoot: string;

test.beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-e2e-web-'));
  fs.cpSync(builtApp, webRoot, { recursive: true });
  server = await startOwnServer({ WEB_ROOT: webRoot, MFA_REQUIRED_ROLES: '' });
});

test.afterAll(async () => {
  await server.stop();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

/** Publishes a new build's service worker (its compressed copies go, so the new text is served). */
function publishNewVersion(mark: string): void {
  const worker = path.join(webRoot, 'sw.js');
  fs.appendFileSync(worker, `\n// ${mark}\n`);
  fs.rmSync(`${worker}.br`, { force: true });
  fs.rmSync(`${worker}.gz`, { force: true });
}

function controllingWorkerText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const url = navigator.serviceWorker.controller?.scriptURL;
    return url === undefined ? '' : (await fetch(url, { cache: 'no-store' })).text();
  });
}

/** Signs in on a fresh browser, which installs the app, and sees no notice yet. */
async function openInstalledApp(page: Page): Promise<void> {
  await page.goto(server.url);
  await signIn(page, adminUsername, adminPassword);
  await waitForInstalledApp(page);
  await expect(page.getByText(updateReady)).toHaveCount(0);
}

test('a new version found on the next visit is announced, and Reload switches to it', async ({
  page,
}) => {
  await openInstalledApp(page);

  publishNewVersion('next visit');
  // The next visit: the browser checks the worker on navigation and installs the new one, which
  // waits while the old one keeps serving the page.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const notice = page.getByRole('status').filter({ hasText: updateReady });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  // Nothing switched under the user: the page is still the old worker's.
  expect(
    await page.evaluate(
      async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null,
    ),
  ).toBe(true);

  // By keyboard: the notice's button is reachable and switches to the new version.
  const reload = notice.getByRole('button', { name: 'Reload' });
  await reload.focus();
  await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByText(updateReady)).toHaveCount(0);
  await waitForInstalledApp(page);
  expect(await controllingWorkerText(page)).toContain('// next visit');
});

test('a new version found while the tab stays open is announced without a reload', async ({
  page,
}) => {
  await openInstalledApp(page);

  publishNewVersion('while open');
  // What the browser does by itself from time to time on a page left open.
  await page.evaluate(async () => {
    await (await navigator.serviceWorker.getRegistration())?.update();
  });
  const notice = page.getByRole('status').filter({ hasText: updateReady });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await Promise.all([
    page.waitForEvent('load'),
    notice.getByRole('button', { name: 'Reload' }).click(),
  ]);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByText(updateReady)).toHaveCount(0);
  expect(await controllingWorkerText(page)).toContain('// while open');
});
