import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import axe, { type Result, type RunOptions } from 'axe-core';

/**
 * The axe-core configuration of the accessibility spec and the screenshot grid: WCAG 2.2 AA (the
 * tags below, target-size among them) and page-has-heading-one (a best practice outside the WCAG tags:
 * every page has its one h1, the card's heading).
 */
export const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
export const axeOptions: RunOptions = {
  runOnly: { type: 'tag', values: TAGS },
  rules: { 'page-has-heading-one': { enabled: true } },
};
/** The axe rules whose outcome depends on colours (all that differ between themes and schemes). */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe on the page as it stands: every rule of axeOptions, or only `rules` (e.g. COLOUR_RULES after a
 * theme or scheme switch). The walks run axe several times on each page (themes, schemes, errors
 * shown), so axe-core is put into the page once and run there with axe.run, as AxeBuilder's legacy mode
 * does: AxeBuilder.analyze() puts the 0.5 MB script in again and finishes each run in a new blank page,
 * seconds per run on a busy 2-core machine, where axe.run itself takes a fraction of a second. The
 * result is the same axe-core's on the same document (a11y.spec checks that it finds what it must).
 * A page with frames (none of ours has one) goes to AxeBuilder, which checks inside each frame.
 */
export async function axeViolations(page: Page, rules?: readonly string[]): Promise<Result[]> {
  const options: RunOptions = rules ? { ...axeOptions, runOnly: { type: 'rule', values: [...rules] } } : axeOptions;
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page }).options(axeOptions);
    return (await (rules ? builder.withRules([...rules]) : builder).analyze()).violations;
  }
  type Axe = { axe?: typeof axe };
  // A navigation (a new document) drops it: put in again then.
  if (!(await page.evaluate(() => typeof (window as Axe).axe?.run === 'function'))) await page.evaluate(axe.source);
  return page.evaluate(async (runOptions) => {
    const loaded = (window as Axe).axe;
    if (!loaded) throw new Error('axe-core is not in the page');
    return (await loaded.run(document, runOptions)).violations;
  }, options);
}

/** A violation as a line: the rule, its help text and its first three places. */
export const describeViolation = (v: Pick<Result, 'id' | 'help' | 'nodes'>): string =>
  `${v.id}: ${v.help} (${v.nodes
    .map((n) => n.target.join(' '))
    .slice(0, 3)
    .join(', ')})`;
