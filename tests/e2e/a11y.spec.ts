import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Visit } from './screen-states';
import { axeViolations, COLOUR_RULES, describeViolation } from './axe';
import { catalogueScreens, leave, setScheme, setTheme, settle, stateKey, submitEmpty, THEMES as ALL_THEMES, visits, whereAmI } from './screen-states';
import { paintedStyles } from './theme-looks';

/**
 * WCAG 2.2 AA (axe-core, with page-has-heading-one) on every screen and state, in the default theme
 * and the branded site's (theme-four, branded.localhost), each in light and dark; plus what axe cannot
 * see: autocomplete tokens, paste, errors linked and announced, keyboard use with visible focus,
 * reflow at 320 px, reduced motion, the password reveal toggle.
 * One page per state; theme and scheme switch between axe runs (the data-theme attribute, as the app
 * switches it, and the emulated prefers-color-scheme), so four combinations cost four axe runs, not four
 * page loads. The other five themes' colours are checked pair by pair in every scheme by
 * tests/ui/tokens.test.ts, and on every page by `npm run screenshots` (axe on the whole grid).
 * The same walk (English, 1280 px) also shows every state in all seven themes, light and dark, and
 * checks that each theme visibly changes it: the computed styles that paint it (tests/e2e/theme-looks.ts)
 * differ from the default theme's. That is `npm test`'s theme check; `npm run screenshots` compares
 * pictures instead (tests/e2e/visual.spec.ts). One walk, so each state is opened once for both.
 */
const THEMES = ['theme-ninja-blue', 'theme-four'] as const;
const SCHEMES = ['light', 'dark'] as const;

interface Finding {
  state: string;
  theme?: string;
  problem: string;
}

/** What axe cannot check: tokens, paste, error wiring. Returns problems found on the page. */
async function formChecks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const visible = (el: Element) => (el as HTMLElement).checkVisibility?.() ?? true;
    for (const input of Array.from(document.querySelectorAll<HTMLInputElement>('input, select, textarea')).filter(visible)) {
      const name = input.id || input.name;
      const ac = input.getAttribute('autocomplete') ?? '';
      if (input.type === 'password' && !['current-password', 'new-password'].includes(ac)) problems.push(`${name}: password input has autocomplete "${ac}"`);
      // 'webauthn' after the token: the browser also offers passkeys in the field's autofill list.
      if (input.type === 'email' && !['username', 'email', 'username webauthn'].includes(ac)) problems.push(`${name}: email input has autocomplete "${ac}"`);
      if (input.getAttribute('inputmode') === 'numeric' && input.maxLength === 6 && ac !== 'one-time-code')
        problems.push(`${name}: code input has autocomplete "${ac}"`);
      // Paste allowed: a paste event must not be cancelled by the page.
      const paste = new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: new DataTransfer() });
      if (!input.dispatchEvent(paste)) problems.push(`${name}: paste is blocked`);
      if (input.getAttribute('aria-invalid') === 'true') {
        const described = (input.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .filter(Boolean)
          .map((id) => document.getElementById(id));
        const error = described.find((el) => el?.classList.contains('fd-field__errors'));
        if (!error || !error.textContent?.trim()) problems.push(`${name}: invalid, but no error text is linked with aria-describedby`);
        else if (!error.closest('[role=alert], [aria-live]')) problems.push(`${name}: its error is not in a live region`);
      }
    }
    for (const error of Array.from(document.querySelectorAll('.fd-form-error, .fd-form-warning, .fd-field__error')).filter(visible)) {
      if (!error.closest('[role=alert], [role=status], [aria-live]')) problems.push(`error "${error.textContent}" is not announced`);
    }
    return problems;
  });
}

async function reflows(page: Page): Promise<boolean> {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: 320, height: 640 });
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= 320);
  await page.setViewportSize(size);
  return fits;
}

test.describe('accessibility (WCAG 2.2 AA)', () => {
  test('axe: every screen and state, in the default and the branded theme, light and dark, has no violations; every theme changes every state', async ({
    page,
    context,
  }) => {
    // About 60 page states, each in 2 schemes x 7 themes: long on a busy 2-core machine (900 s was seen to run out).
    test.setTimeout(1_500_000);
    const findings: Finding[] = [];
    const unthemed: string[] = [];
    let themesCompared = 0;
    const audited = new Map<string, number>();
    const seen = new Set<string>();
    let runs = 0;

    const audit = async (visit: Visit, state: string) => {
      const where = await whereAmI(page);
      const base = stateKey(page, visit, where);
      if (!base) return; // not ours to audit: another site (the demo identity provider), or a redirect
      const key = `${base} ${state.includes('errors') ? 'errors' : ''}`;
      if (seen.has(key)) return;
      seen.add(key);
      for (const problem of await formChecks(page)) findings.push({ state, problem });
      if (!(await reflows(page))) findings.push({ state, problem: 'scrolls horizontally at 320 px' });
      // Every theme visibly applied: compared on the state as opened (its errors shown change no colours).
      const compareThemes = !state.includes('errors');
      if (compareThemes) themesCompared += 1;
      for (const scheme of SCHEMES) {
        await setScheme(page, scheme);
        const looks: string[] = [];
        for (const theme of ALL_THEMES) {
          if (!compareThemes && !(THEMES as readonly string[]).includes(theme)) continue;
          await setTheme(page, theme);
          if ((THEMES as readonly string[]).includes(theme)) {
            // Theme and scheme change colours only: after the full run in the default theme's light
            // scheme, the others need only the rules that read colours.
            const violations = await axeViolations(page, theme === THEMES[0] && scheme === 'light' ? undefined : COLOUR_RULES);
            runs += 1;
            for (const v of violations) findings.push({ state, theme: `${theme} ${scheme}`, problem: describeViolation(v) });
          }
          if (compareThemes) looks.push(await paintedStyles(page));
        }
        for (let i = 1; i < looks.length; i += 1)
          if (looks[i] === looks[0]) unthemed.push(`${state} (${scheme}): ${ALL_THEMES[i]} looks like ${ALL_THEMES[0]}`);
      }
      await setScheme(page, 'light');
      await setTheme(page, THEMES[0]);
      const label = `${where}${state.includes('errors') ? ' +errors' : ''}${visit.held ? ' +waiting' : ''}`;
      audited.set(label, (audited.get(label) ?? 0) + 1);
    };

    for (const visit of visits()) {
      if (process.env.A11Y_VERBOSE) console.log(`a11y: ${visit.name} (${Math.round(performance.now() / 1000)} s)`);
      try {
        await visit.open(page, context);
        await settle(page, visit);
        await audit(visit, visit.name);
        if (visit.submitEmpty && (await submitEmpty(page))) await audit(visit, `${visit.name} (errors shown)`);
        await leave(page, visit);
      } catch (error) {
        // One broken state must not hide the findings of all the others.
        findings.push({ state: visit.name, problem: `could not be audited: ${(error as Error).message.split('\n')[0]}` });
      }
    }

    // Every screen of the catalogue was reached at least once (a new screen needs a way in).
    const screensSeen = new Set([...audited.keys()].map((k) => k.split('/')[0]));
    const missing = catalogueScreens()
      .map((s) => s.id)
      .filter((id) => !screensSeen.has(id));

    mkdirSync('build', { recursive: true });
    writeFileSync(
      'build/a11y-report.json',
      JSON.stringify({ states: [...audited.keys()], themes: THEMES, schemes: SCHEMES, axeRuns: runs, findings }, null, 2),
    );
    console.log(`themes: ${themesCompared} states x ${ALL_THEMES.length} themes x ${SCHEMES.length} schemes compared by computed styles`);
    console.log(
      `axe: ${seen.size} page states (${audited.size} distinct screen/step/error states) x ${THEMES.length} themes x ${SCHEMES.length} schemes = ${runs} runs, ${findings.length} finding(s)`,
    );
    expect(missing, 'screens no state reached').toEqual([]);
    expect(themesCompared).toBeGreaterThan(25);
    expect(unthemed, 'states a theme does not change').toEqual([]);
    expect(findings.map((f) => `${f.state}${f.theme ? ` [${f.theme}]` : ''}: ${f.problem}`)).toEqual([]);
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
