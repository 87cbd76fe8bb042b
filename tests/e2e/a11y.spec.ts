import { expect, test, type Page } from '@playwright/test';
import type { Visit } from './screen-states';
import { AXE_VERSION, axeRun, axeViolations, COLOUR_RULES, describeViolation } from './axe';
import { catalogueScreens, leave, setScheme, setTheme, settle, slug, stateKey, THEMES as ALL_THEMES, visits, whereAmI } from './screen-states';
import { paintedStyles } from './theme-looks';
import { Results } from './a11y/checks';
import { installProbe } from './a11y/probe';
import { screenFiles, timingFacts } from './a11y/timing';
import { StateChecks } from './a11y/walk';

/**
 * WCAG 2.2 AA on every screen and state: axe-core (with page-has-heading-one) in the default theme
 * and the branded site's (theme-four, branded.localhost), each in light and dark; and what axe cannot
 * judge, by the checks of tests/e2e/a11y/ (./a11y/checks.ts lists them with their criteria): keyboard
 * only (Tab, Shift+Tab, arrows, Space) with a visible, unobscured focus ring of 3:1, no trap, focus
 * on the heading or the first error after each change and each submit; reflow at 320 px, target
 * sizes, text at 200 %, text spacing; forced colours and reduced motion; what Chromium's
 * accessibility tree announces, against reviewed snapshots (tests/e2e/a11y.spec.ts-snapshots/,
 * `--update-snapshots` writes them); autocomplete tokens, paste, redundant entry; the catalogue's
 * time limits. The run's record is build/a11y-results.json, which `npm run acr` turns into the
 * conformance report (docs/accessibility-conformance.md).
 * One page per state; theme and scheme switch between axe runs (the data-theme attribute, as the app
 * switches it, and the emulated prefers-color-scheme), so four combinations cost four axe runs, not four
 * page loads. The other five themes' colours are checked pair by pair in every scheme by
 * tests/ui/tokens.test.ts, and on every page by `npm run screenshots` (axe on the whole grid).
 * The same walk (English, 1280 px) also shows every state in all seven themes, light and dark, and
 * checks that each theme visibly changes it: the computed styles that paint it (tests/e2e/theme-looks.ts)
 * differ from the default theme's. That is `npm test`'s theme check; `npm run screenshots` compares
 * pictures instead (tests/e2e/visual.spec.ts). One walk, so each state is opened once for all of it.
 */
const THEMES = ['theme-ninja-blue', 'theme-four'] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * axe in the two themes and both schemes, and every theme compared with the default one by its
 * painted styles (when `compare`); returns the states a theme does not change.
 */
async function themesAndAxe(page: Page, results: Results, state: string, compare: boolean): Promise<string[]> {
  const unthemed: string[] = [];
  for (const scheme of SCHEMES) {
    await setScheme(page, scheme);
    const looks: string[] = [];
    for (const theme of ALL_THEMES) {
      if (!compare && !(THEMES as readonly string[]).includes(theme)) continue;
      await setTheme(page, theme);
      if ((THEMES as readonly string[]).includes(theme)) {
        // Theme and scheme change colours only: after the full run in the default theme's light
        // scheme, the others need only the rules that read colours.
        const { violations, criteria } = await axeRun(page, theme === THEMES[0] && scheme === 'light' ? undefined : COLOUR_RULES);
        results.axeCovered(criteria);
        results.record(
          'axe',
          state,
          violations.map((v) => `[${theme} ${scheme}] ${describeViolation(v)}`),
        );
      }
      if (compare) looks.push(await paintedStyles(page));
    }
    for (let i = 1; i < looks.length; i += 1) if (looks[i] === looks[0]) unthemed.push(`${state} (${scheme}): ${ALL_THEMES[i]} looks like ${ALL_THEMES[0]}`);
  }
  await setScheme(page, 'light');
  await setTheme(page, THEMES[0]);
  return unthemed;
}

test.describe('accessibility (WCAG 2.2 AA)', () => {
  test('every screen and state: axe in two themes, light and dark; keyboard, focus, reflow, text size and spacing, forced colours, motion, what is announced; every theme changes every state', async ({
    page,
    context,
  }, testInfo) => {
    // About 90 page states, each in 2 schemes x 7 themes and the checks beyond axe: long on a busy 2-core machine.
    test.setTimeout(1_800_000);
    await installProbe(context);
    const results = new Results();
    const checks = new StateChecks(page, context, results, testInfo);
    const unthemed: string[] = [];
    const couldNot: string[] = [];
    let themesCompared = 0;
    const audited = new Map<string, number>();
    const seen = new Set<string>();

    /** Checks the state on show; its id, or undefined when it is not ours or was seen already. */
    const audit = async (visit: Visit, errorsShown: boolean): Promise<string | undefined> => {
      const where = await whereAmI(page);
      const base = stateKey(page, visit, where);
      if (!base) return undefined; // not ours to audit: another site (the demo identity provider), or a redirect
      const key = `${base} ${errorsShown ? 'errors' : ''}`;
      if (seen.has(key)) return undefined;
      seen.add(key);
      const state = slug(`${visit.name}${errorsShown ? ' errors shown' : ''}`);
      results.addState(state, where, `${visit.name}${errorsShown ? ' (errors shown)' : ''}`);
      // Every theme visibly applied: compared on the state as opened (its errors shown change no colours).
      if (!errorsShown) themesCompared += 1;
      const started = performance.now();
      unthemed.push(...(await themesAndAxe(page, results, state, !errorsShown)));
      checks.spent.set('axe and themes', (checks.spent.get('axe and themes') ?? 0) + performance.now() - started);
      await checks.run(state, { errorsShown });
      const label = `${where}${errorsShown ? ' +errors' : ''}${visit.held ? ' +waiting' : ''}`;
      audited.set(label, (audited.get(label) ?? 0) + 1);
      return state;
    };

    for (const visit of visits().filter((v) => !process.env.A11Y_ONLY || v.name.includes(process.env.A11Y_ONLY))) {
      if (process.env.A11Y_VERBOSE) console.log(`a11y: ${visit.name} (${Math.round(performance.now() / 1000)} s)`);
      try {
        await visit.open(page, context);
        await settle(page, visit);
        let last = await audit(visit, false);
        // The errors come from the keyboard: Space on the submit button; focus must go to the first.
        if (last && visit.submitEmpty && (await checks.submitByKeyboard(last))) last = (await audit(visit, true)) ?? last;
        if (last) await checks.afterVisit(last);
        await leave(page, visit);
      } catch (error) {
        // One broken state must not hide the findings of all the others.
        couldNot.push(`${visit.name}: could not be audited: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    checks.consistency();
    await checks.close();
    if (process.env.A11Y_VERBOSE)
      console.log(`a11y time per group: ${[...checks.spent].map(([group, ms]) => `${group} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    const timing = timingFacts(screenFiles());
    results.record('timing', 'catalogue', timing.problems);

    // Every screen of the catalogue was reached at least once (a new screen needs a way in).
    const screensSeen = new Set([...audited.keys()].map((k) => k.split('/')[0]));
    const missing = catalogueScreens()
      .map((s) => s.id)
      .filter((id) => !screensSeen.has(id));
    const written = results.write('build/a11y-results.json', { browser: context.browser()?.version() ?? 'unknown', axe: AXE_VERSION });
    console.log(`themes: ${themesCompared} states x ${ALL_THEMES.length} themes x ${SCHEMES.length} schemes compared by computed styles`);
    console.log(
      `a11y: ${seen.size} page states (${audited.size} distinct screen/step/error states), ${written.checks.length} checks; time limits: ${timing.timers.join('; ')}`,
    );
    expect(missing, 'screens no state reached').toEqual([]);
    expect(themesCompared).toBeGreaterThan(25);
    expect(unthemed, 'states a theme does not change').toEqual([]);
    expect([...couldNot, ...results.findings()]).toEqual([]);
  });

  test("the walk's axe runner finds violations: every rule, then only the colour rules, again after a navigation", async ({ page }) => {
    // The control of the walk above: its axe runs (axeViolations, axe-core put in once per page) report
    // what is there, and a colour-only run reports colours only.
    await page.goto('/login');
    await settle(page);
    expect((await axeViolations(page)).map((v) => v.id)).toEqual([]);
    await page.evaluate(() => {
      const form = document.querySelector('form.fd-form');
      const faint = document.createElement('p');
      faint.textContent = 'Faint text';
      faint.style.color = '#f4f4f4';
      const unlabelled = document.createElement('input');
      unlabelled.type = 'text';
      form?.append(faint, unlabelled);
    });
    const all = (await axeViolations(page)).map((v) => v.id);
    expect(all).toContain('color-contrast');
    expect(all).toContain('label');
    expect((await axeViolations(page, COLOUR_RULES)).map((v) => v.id)).toEqual(['color-contrast']);
    // A new document drops axe-core: it is put in again, and finds the new page clean.
    await page.goto('/login');
    await settle(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('the sign-in form works from the keyboard alone, with a visible focus on every stop', async ({ page }) => {
    await page.goto('/login');
    await settle(page);
    const stops: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        return { name: el.getAttribute('aria-label') || el.textContent?.trim() || el.id, outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      if (!focus) continue;
      expect(focus.outline, `focus ring on ${focus.name}`).not.toBe('none');
      expect(focus.width, `focus ring width on ${focus.name}`).toBeGreaterThanOrEqual(2);
      stops.push(focus.name);
    }
    expect(stops.length).toBeGreaterThan(4);
    // Sign in with keys only: email is focused on arrival (autofocus), Tab to password, Enter submits.
    await page.goto('/login');
    await settle(page);
    await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
    await page.keyboard.type('nomfa@demo.test');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    await page.keyboard.type('Demo-Passw0rd!');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/app\/$/);
  });

  test('a password can be revealed and hidden again, keeping its value, token and paste', async ({ page }) => {
    await page.goto('/login');
    await settle(page);
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('Secret-123');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(password).toHaveValue('Secret-123');
    await expect(password).toHaveAttribute('autocomplete', 'current-password');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await expect(password).toHaveValue('Secret-123');
    // The toggle is a 24 px target at least (WCAG 2.5.8) and reachable by keyboard.
    const box = await page.getByRole('button', { name: 'Show password' }).boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(24);
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(24);
  });

  test('errors are linked to their field and announced', async ({ page }) => {
    await page.goto('/login');
    await settle(page);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const email = page.getByLabel('Email', { exact: true });
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    // Playwright resolves aria-describedby into the accessible description.
    await expect(email).toHaveAccessibleDescription(/Email field can not be empty/);
    await expect(page.getByRole('alert').filter({ hasText: 'Email field can not be empty' })).toBeVisible();
  });

  test('motion stops when the visitor prefers reduced motion', async ({ page }) => {
    await page.goto('/login');
    await settle(page);
    const spin = () =>
      page.evaluate(() => {
        const probe = document.createElement('span');
        probe.className = 'fd-spinner';
        document.body.appendChild(probe);
        const { animationName, animationDuration } = getComputedStyle(probe);
        probe.remove();
        return animationName !== 'none' && parseFloat(animationDuration) > 0;
      });
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await spin()).toBe(true);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await spin()).toBe(false);
  });
});
