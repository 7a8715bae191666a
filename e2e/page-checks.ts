import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

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

/**
 * The page's critical and serious axe violations (WCAG 2.2 A and AA): the ones that stop or
 * mislead a person using a screen reader, a keyboard or weak eyesight.
 */
export async function seriousViolations(page: Page) {
  await animationsFinished(page);
  const results = await new AxeBuilder({ page }).withTags(wcagTags).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
    }));
}

/** Fails on any critical or serious axe violation of the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/**
 * Every browser test imports `test` from here: after each test, whatever page and state it ended
 * on is checked by axe, so a new page or state cannot go unchecked.
 */
export const test = base.extend<{ accessibleAtEnd: void }>({
  accessibleAtEnd: [
    async ({ page }, use, testInfo) => {
      await use();
      // A failed test has already said why; a page that left the app has nothing of ours.
      if (testInfo.status !== testInfo.expectedStatus || page.isClosed()) return;
      if (!/^https?:/.test(page.url())) return;
      await expectAccessible(page);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * The visible texts the page cuts short ('691 days o…'): an element that clips its own text (an
 * ellipsis, or hidden overflow around text of its own) narrower than that text.
 */
export async function truncatedTexts(page: Page): Promise<string[]> {
  await animationsFinished(page);
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('body *')).flatMap((element) => {
      if (!element.checkVisibility()) return [];
      const style = getComputedStyle(element);
      const ownText = Array.from(element.childNodes).some(
        (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
      );
      const clips =
        style.textOverflow === 'ellipsis' ||
        (ownText && ['hidden', 'clip'].includes(style.overflowX));
      // A visually hidden text (1px, for screen readers) is clipped on purpose.
      if (!clips || element.clientWidth <= 1 || element.scrollWidth <= element.clientWidth + 1) {
        return [];
      }
      return [(element.textContent ?? '').trim()];
    }),
  );
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
