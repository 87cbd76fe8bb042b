import type { Page } from '@playwright/test';
import type { FocusStop } from './probe';

/**
 * Forced colours (Windows high contrast, emulated through Chromium's forced-colors media feature and
 * its own colour forcing) and prefers-reduced-motion on a screen state; the functions that run in
 * the page are ./page/modes.ts. Each leaves the emulation as it found it, transitions finished.
 */

const finishTransitions = (page: Page) =>
  page.evaluate(() => document.getAnimations().forEach((animation) => animation instanceof CSSTransition && animation.finish()));

/** Controls keep a boundary, pictures keep showing, and every stop of the keyboard walk keeps its focus outline. */
export async function forcedColours(page: Page, stops: FocusStop[]): Promise<{ shapes: string[]; focus: string[] }> {
  await page.emulateMedia({ forcedColors: 'active' });
  try {
    return await page.evaluate(
      (ids) => {
        const probe = window.__fdA11y;
        if (!probe) throw new Error('the accessibility probe is not in the page');
        const shapes = probe.forcedColours();
        const focus = probe
          .ringsOf(ids)
          .filter((ring) => ring.ring !== 'outline' || ring.width < 1)
          .map((ring) => `no focus outline on ${ring.id} in forced colours`);
        return { shapes, focus };
      },
      [...new Set(stops.map((stop) => stop.id))],
    );
  } finally {
    await page.emulateMedia({ forcedColors: 'none' });
    await finishTransitions(page);
  }
}

/** Nothing moves for ever (but a busy indicator); under prefers-reduced-motion nothing moves at all. */
export async function motion(page: Page): Promise<{ reduced: string[]; forever: string[] }> {
  const forever = await page.evaluate(() => window.__fdA11y?.endlessMotion() ?? []);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    return { reduced: await page.evaluate(() => window.__fdA11y?.reducedMotion() ?? []), forever };
  } finally {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  }
}
