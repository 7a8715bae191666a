import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Waits for the page's finite CSS transitions and animations to end (a spinner's never does).
 * axe measures colours as drawn, so a dialog fading in or a button mid-way to its disabled
 * colours fails the contrast check on a slow machine.
 */
export async function animationsFinished(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** The page's WCAG 2.2 AA violations found by axe-core, in a form that reads well in a diff. */
export async function axeViolations(page: Page) {
  await animationsFinished(page);
  const results = await new AxeBuilder({ page }).withTags(wcagTags).analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

export async function expectNoHorizontalOverflow(page: Page) {
  // Polled: after a viewport change the shell's navigation slides away in a transition.
  await expect
    .poll(() =>
      page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
    )
    .toBe(0);
}

/** Waits until the service worker has precached the app and controls the page. */
export async function waitForInstalledApp(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
}
