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
/** The axe-core version the walks run (the conformance report names it). */
export const AXE_VERSION: string = axe.version;
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
  return (await axeRun(page, rules)).violations;
}

/**
 * axeViolations, and the WCAG success criteria of the rules that applied (passed, failed or needed
 * review somewhere on the page: '1.4.3' from the tag wcag143), which the conformance report cites.
 */
export async function axeRun(page: Page, rules?: readonly string[]): Promise<{ violations: Result[]; criteria: string[] }> {
  const options: RunOptions = { ...(rules ? { ...axeOptions, runOnly: { type: 'rule', values: [...rules] } } : axeOptions), resultTypes: ['violations'] };
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page }).options(options);
    const results = await (rules ? builder.withRules([...rules]) : builder).analyze();
    return { violations: results.violations, criteria: criteriaOf([...results.passes, ...results.violations, ...results.incomplete]) };
  }
  type Axe = { axe?: typeof axe };
  // A navigation (a new document) drops it: put in again then.
  if (!(await page.evaluate(() => typeof (window as Axe).axe?.run === 'function'))) await page.evaluate(axe.source);
  const results = await page.evaluate(async (runOptions) => {
    const loaded = (window as Axe).axe;
    if (!loaded) throw new Error('axe-core is not in the page');
    const { violations, passes, incomplete } = await loaded.run(document, runOptions);
    // Only the tags of what applied travel back, not every passing node.
    return { violations, applied: [...passes, ...violations, ...incomplete].map((rule) => ({ tags: rule.tags })) };
  }, options);
  return { violations: results.violations, criteria: criteriaOf(results.applied) };
}

/** 'wcag143' -> '1.4.3', 'wcag1410' -> '1.4.10': the success-criterion tags of axe's rules. */
function criteriaOf(rules: ReadonlyArray<{ tags: string[] }>): string[] {
  const found = new Set<string>();
  for (const tag of rules.flatMap((rule) => rule.tags)) {
    const digits = /^wcag(\d)(\d)(\d+)$/.exec(tag);
    if (digits) found.add(`${digits[1]}.${digits[2]}.${digits[3]}`);
  }
  return [...found].sort();
}

/** A violation as a line: the rule, its help text and its first three places. */
export const describeViolation = (v: Pick<Result, 'id' | 'help' | 'nodes'>): string =>
  `${v.id}: ${v.help} (${v.nodes
    .map((n) => n.target.join(' '))
    .slice(0, 3)
    .join(', ')})`;
