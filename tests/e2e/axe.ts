import type { RunOptions } from 'axe-core';

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
