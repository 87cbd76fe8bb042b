import { expect, test } from '@playwright/test';
import { Results } from './a11y/checks';
import { FAULTED, injectFaults } from './a11y/faults';
import { installProbe } from './a11y/probe';
import { StateChecks } from './a11y/walk';
import { signIn } from './helpers';
import { settle } from './screen-states';

/**
 * The accessibility walk's checks beyond axe (tests/e2e/a11y.spec.ts, tests/e2e/a11y/) find what they
 * must; and the fixes two of them asked for: the account-moved countdown a button stops (timing,
 * WCAG 2.2.1), the language picker that switches on Enter, not on the arrow keys (on input, 3.2.2).
 */
test.describe('accessibility checks beyond axe', () => {
  test("the walk's checks beyond axe find what they must: each on a sign-in page made to fail it", async ({ page, context }, testInfo) => {
    // The control of the walk's other checks: the same StateChecks on /login, clean first, then with
    // a fault for each. (Each fault is made with a script or a constructed style sheet: the CSP allows both.)
    await installProbe(context);
    await page.goto('/login');
    await settle(page);
    const clean = new Results();
    const cleanChecks = new StateChecks(page, context, clean, testInfo);
    await cleanChecks.run('clean', { errorsShown: false, snapshot: false });
    await cleanChecks.afterVisit('clean');
    await cleanChecks.close();
    expect(clean.findings()).toEqual([]);
    await page.goto('/login');
    await settle(page);
    await injectFaults(page);
    const faulty = new Results();
    const checks = new StateChecks(page, context, faulty, testInfo);
    await checks.run('faulty', { errorsShown: false, snapshot: false });
    await checks.afterVisit('faulty');
    await checks.close();
    expect(new Set(faulty.failing())).toEqual(new Set(FAULTED));
  });

  test('the account-moved countdown can be turned off: "Stay on this page" stops it, the Login link still leads on', async ({ page, context }) => {
    // WCAG 2.2.1, the fix the timing check asks for. Playwright's clock runs the 5 seconds (no waiting);
    // the new server's address is answered 204, so a redirect would be seen as a request, the page staying.
    const moved: string[] = [];
    await page.route(
      (url) => url.searchParams.get('moved') === '1',
      (route) => {
        moved.push(route.request().url());
        return route.fulfill({ status: 204 });
      },
    );
    await page.clock.install();
    const goesOn = async (stay: boolean) => {
      moved.length = 0;
      await signIn(page, 'moved@demo.test');
      await expect(page.getByRole('heading', { name: 'Account Moved' })).toBeVisible();
      if (stay) {
        await page.getByRole('button', { name: 'Stay on this page' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'You will stay on this page until you choose Login.' })).toBeVisible();
        await expect(page.getByText(/You will be taken there in/)).toBeHidden();
      }
      await page.clock.runFor(10_000);
      // The control (no stay) leaves; with stay, nothing is asked for and the link is still there.
      if (!stay) await expect.poll(() => moved.length).toBeGreaterThan(0);
      return moved.length;
    };
    expect(await goesOn(false)).toBeGreaterThan(0);
    await context.clearCookies();
    expect(await goesOn(true)).toBe(0);
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('the language picker switches on Enter, on leaving it or on a click, not while the arrow keys move through its choices', async ({ page }) => {
    // WCAG 3.2.2 (the on-input check of the walk found it): on a closed select each arrow key changes
    // the value, and the page switched its language at each one.
    await page.goto('/login');
    await settle(page);
    const picker = page.locator('.fd-picker__select');
    const lang = page.locator('html');
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await expect(picker).toHaveValue('es-es');
    await expect(picker).not.toHaveAttribute('aria-busy', 'true');
    await expect(lang).toHaveAttribute('lang', 'en-US');
    await page.keyboard.press('Enter');
    await expect(lang).toHaveAttribute('lang', 'es-ES');
    // A choice with the pointer (Playwright's selectOption: no key) switches at once.
    await picker.selectOption('en-us');
    await expect(lang).toHaveAttribute('lang', 'en-US');
    // Moved to with the arrows, then left with Tab: switched on leaving.
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await expect(lang).toHaveAttribute('lang', 'en-US');
    await page.keyboard.press('Tab');
    await expect(lang).toHaveAttribute('lang', 'es-ES');
  });
});
