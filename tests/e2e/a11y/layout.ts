import type { CDPSession, Page } from '@playwright/test';

/**
 * Layout checks on a screen state: reflow at 320 CSS px (WCAG 1.4.10) with pointer targets of at
 * least 24 px or spaced as 2.5.8 allows; text at 200 % of the browser's text size (1.4.4: Chromium's
 * own font-size setting, through CDP, as a visitor sets it); the text spacing of 1.4.12 (a
 * constructed style sheet, which the page's CSP allows, as the bookmarklets testers use add); and
 * no orientation lock in the styles (1.3.4). Each leaves the page as it found it. The functions that
 * run in the page are ./page/layout.ts.
 */

/** WCAG 1.4.12's spacing: line height 1.5, paragraphs 2 em apart, letters 0.12 em, words 0.16 em. */
const TEXT_SPACING = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
p { margin-bottom: 2em !important; }`;

/** Chromium's default text sizes (px); the 1.4.4 check doubles them. */
const FONT_SIZES = { standard: 16, fixed: 13 };
/** Text must grow at least this much when the browser's text size doubles (a little under 2 for rounding). */
const GROWTH = 1.9;
export const TARGET_MIN = 24;

export interface Reflow {
  reflow: string[];
  targets: string[];
  orientation: string[];
}

/** At 320 x 640: nothing scrolls sideways or is cut off, targets big or apart enough; then back. */
export async function reflowChecks(page: Page): Promise<Reflow> {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: 320, height: 640 });
  const found = await page.evaluate((min) => {
    const probe = window.__fdA11y;
    if (!probe) throw new Error('the accessibility probe is not in the page');
    return { reflow: probe.overflow(), targets: probe.targets(min), orientation: probe.orientation() };
  }, TARGET_MIN);
  await page.setViewportSize(size);
  return found;
}

/** The browser's text size doubled (Chromium's setting, as a visitor sets it): all text grows, none is cut off. */
export async function textResize(cdp: CDPSession, page: Page): Promise<string[]> {
  const before = await page.evaluate(() => window.__fdA11y?.textSizes() ?? []);
  try {
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: FONT_SIZES.standard * 2, fixed: FONT_SIZES.fixed * 2 } });
    return await page.evaluate(([sizes, growth]) => [...(window.__fdA11y?.textNotGrown(sizes, growth) ?? []), ...(window.__fdA11y?.overflow() ?? [])], [
      before,
      GROWTH,
    ] as const);
  } finally {
    await cdp.send('Page.setFontSizes', { fontSizes: FONT_SIZES });
  }
}

/** WCAG 1.4.12's text spacing applied: nothing cut off, nothing scrolls sideways. */
export async function textSpacing(page: Page): Promise<string[]> {
  return page.evaluate((css) => {
    const probe = window.__fdA11y;
    if (!probe) throw new Error('the accessibility probe is not in the page');
    probe.overrideStyles(css);
    try {
      return probe.overflow();
    } finally {
      probe.overrideStyles('');
    }
  }, TEXT_SPACING);
}
