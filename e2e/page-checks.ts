import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The page's WCAG 2.2 AA violations found by axe-core, in a form that reads well in a diff. */
export async function axeViolations(page: Page) {
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
