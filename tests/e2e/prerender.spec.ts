import { expect, test, type Page } from '@playwright/test';
import { expectAlert, freshDemoTenantForEachTest, outbox, PASSWORD } from './helpers';

/**
 * Issue 27: the server's page of a route is the app's first state, prerendered by the build
 * (scripts/prerender.ts), so it works before its scripts arrive; the app then hydrates it.
 * - with scripts blocked, the sign-in, reset-request and resend-activation forms work as plain
 *   forms posting to the server (server/spa/forms.ts), and every other form says it needs JavaScript;
 * - with scripts delayed, what is typed and ticked meanwhile survives hydration, the email's probe
 *   runs on it, and a Sign in pressed meanwhile is made once the app is ready;
 * - hydration logs no mismatch and moves nothing.
 */
freshDemoTenantForEachTest();

const email = (page: Page) => page.getByLabel('Email', { exact: true });

test.describe('with scripts blocked', () => {
  test.use({ javaScriptEnabled: false });

  test('/login shows its working form, and a plain post signs a demo account in', async ({ page, context }) => {
    await page.goto('/login?return_to=%2Fapp%2F');
    await expect(email(page)).toBeVisible();
    await expect(email(page)).toBeFocused();
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
    // Nothing says JavaScript is needed: this form does without.
    await expect(page.locator('noscript .fd-noscript')).toHaveCount(0);
    await email(page).fill('nomfa@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Keep me signed in').check();
    const answer = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect((await answer).status()).toBe(303);
    await expect(page).toHaveURL(/\/app\/$/);
    const session = (await context.cookies()).find((cookie) => cookie.name === 'fd_session');
    expect(session?.httpOnly).toBe(true);
    // Keep me signed in: a lasting cookie.
    expect(session?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 24 * 3600);
    // The signed-in session is real: the API knows it.
    expect((await (await page.request.get('/ws/account/session')).json()) as { userType?: string }).toMatchObject({ userType: 'TECHNICIAN' });
  });

  test("a refused sign-in answers the form again with the spec's text, the email kept and the password not", async ({ page }) => {
    await page.goto('/login');
    await email(page).fill('disabled@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectAlert(page, 'Your user account has been disabled. Please contact your system administrator.');
    await expect(email(page)).toHaveValue('disabled@demo.test');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    // Empty fields say so, as the browser's check would.
    await email(page).fill('');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectAlert(page, 'Email field can not be empty Password field can not be empty');
  });

  test('a sign-in that needs MFA goes on to /mfa, which says it needs JavaScript', async ({ page }) => {
    await page.goto('/login');
    await email(page).fill('tech@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/mfa\?.*state=/);
    await expect(page.locator('noscript .fd-noscript')).toHaveText(
      'This page needs JavaScript. Please turn it on in your browser settings, then reload the page.',
    );
  });

  test('when the server demands the bot check, the answer says it needs JavaScript', async ({ page }) => {
    await page.goto('/login');
    await email(page).fill('captcha-fail@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectAlert(page, 'To continue, a check that you are not a robot runs in your browser. Please turn on JavaScript, then try again.');
  });

  test.describe('in German', () => {
    // The browser's language (Accept-Language): the server picks it as the app does.
    test.use({ locale: 'de-DE' });

    test('the reset request by email sends the link and shows its page, in the visitor’s language', async ({ page, request }) => {
      await page.goto('/resetPassword');
      // (By role: 'E-Mail' also names the first choice of how to verify.)
      await page.getByRole('textbox', { name: 'E-Mail', exact: true }).fill('nomfa@demo.test');
      await page.getByRole('button', { name: 'Senden' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Prüfen Sie Ihre E-Mails');
      await expect(page.getByRole('status').filter({ hasText: 'E-Mail zur Passwortwiederherstellung gesendet' })).toBeVisible();
      expect((await outbox(request, 'nomfa@demo.test')).some((mail) => mail.link?.includes('/resetPassword/'))).toBe(true);
    });
  });

  test('resend activation: sent, or the spec’s already-activated text', async ({ page }) => {
    await page.goto('/requestActivation');
    await email(page).fill('inactive@demo.test');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Activation email sent.' })).toBeVisible();
    await page.goto('/requestActivation');
    await email(page).fill('tech@demo.test');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectAlert(page, 'The specified email already has an activated account.');
  });

  test('every other form says it needs JavaScript, and its post only comes back to it', async ({ page }) => {
    await page.goto('/register');
    await expect(page.locator('noscript .fd-noscript')).toHaveCount(1);
    await page.getByLabel('Organization').fill('Acme');
    await page.getByRole('button', { name: /Register|Continue/ }).click();
    await expect(page).toHaveURL(/\/register$/);
  });
});

test.describe('with scripts delayed by 3 s', () => {
  /**
   * Holds every script of the app for 3 s, the early script aside (src/early.ts, 0.2 kB, the first
   * of the page: it holds a press until the app is ready).
   */
  async function delayScripts(page: Page) {
    await page.route(/\/assets\/(?!early-).*\.js$/, async (route) => {
      await new Promise((done) => setTimeout(done, 3000));
      await route.continue();
    });
  }
  const live = (page: Page) => page.waitForFunction(() => document.querySelector('form')?.dataset.fdLive !== undefined, undefined, { timeout: 20_000 });

  test('what is typed and ticked before the app runs survives hydration, and the probe runs on it', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await delayScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await email(page).fill('nomfa@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Keep me signed in').check();
    expect(await page.evaluate(() => document.querySelector('form')?.dataset.fdLive)).toBeUndefined();
    const probe = page.waitForRequest('**/ws/account/authentication-state');
    await live(page);
    expect((await probe).postDataJSON()).toEqual({ email: 'nomfa@demo.test' });
    await expect(email(page)).toHaveValue('nomfa@demo.test');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue(PASSWORD);
    await expect(page.getByLabel('Keep me signed in')).toBeChecked();
    // Only the first load is delayed: the screens after the sign-in load as usual.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    const sent = page.waitForRequest('**/ws/account/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect((await sent).postDataJSON()).toMatchObject({ email: 'nomfa@demo.test', password: PASSWORD, staySignedIn: true });
    await expect(page).toHaveURL(/\/app\/$/);
    expect(errors).toEqual([]);
  });

  test('a Sign in pressed before the app runs is held, then made once it is ready', async ({ page }) => {
    await delayScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await email(page).fill('nomfa@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Held: no plain post, the button waits.
    expect(await page.evaluate(() => document.querySelector('form')?.dataset.fdHeld)).toBe('');
    // Made once the app is ready (only the first load is delayed: the screens after it load as usual).
    await page.waitForRequest('**/ws/account/login', { timeout: 20_000 });
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await expect(page).toHaveURL(/\/app\/$/, { timeout: 20_000 });
    expect(posts.filter((path) => path === '/ws/account/login')).toHaveLength(1);
    expect(posts).not.toContain('/login');
  });

  test("on /register a language chosen before the app runs is the form's, through Continue and Back", async ({ page }) => {
    await delayScripts(page);
    await page.goto('/register', { waitUntil: 'commit' });
    const language = page.locator('form.fd-form').getByLabel('Language');
    // The prerendered choice is the browser's language; its option carries the language itself.
    await expect(language).toHaveValue('en-us');
    await language.selectOption({ label: 'Français (France)' });
    await page.getByLabel('Organization').fill('Early Ltd');
    await live(page);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await expect(language).toHaveValue('fr-fr');
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await email(page).fill('early.choice@acme.test');
    await page.getByLabel('Password', { exact: true }).fill('Trial-Passw0rd');
    await page.getByLabel('Verify Password').fill('Trial-Passw0rd');
    await page.getByLabel('Cell Phone').fill('+1 415 555 0142');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Tell us about yourself' })).toBeVisible();
    // Back: the step is drawn by the app from what Continue kept, the early choice among it.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByLabel('Organization')).toHaveValue('Early Ltd');
    await expect(language.locator('option:checked')).toHaveText('Français (France)');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Tell us about yourself' })).toBeVisible();
  });

  // The first step's parts that load after the form is live (the phone input, a chunk of its own):
  // typed before the app, or into a part still on its way, every field reaches Continue.
  for (const when of ['before the app runs', 'while the phone part loads'] as const)
    test(`on /register every field typed ${when} is sent by Continue`, async ({ page }) => {
      if (when === 'before the app runs') await delayScripts(page);
      else
        await page.route(/\/assets\/PhoneWidget-.*\.js$/, async (route) => {
          await new Promise((done) => setTimeout(done, 3000));
          await route.continue();
        });
      await page.goto('/register', { waitUntil: 'commit' });
      if (when === 'while the phone part loads') await live(page);
      const form = page.locator('form.fd-form');
      await form.getByLabel('Organization').fill('Early Ltd');
      await form.getByLabel('First Name').fill('Ada');
      await form.getByLabel('Last Name').fill('Lovelace');
      await email(page).fill(`early-${Date.now()}@acme.test`);
      await form.getByLabel('Password', { exact: true }).fill('Trial-Passw0rd');
      await form.getByLabel('Verify Password').fill('Trial-Passw0rd');
      await form.getByLabel('Cell Phone').fill('+1 415 555 0142');
      await live(page);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await expect(page.locator('[data-screen] [aria-busy="true"]')).toHaveCount(0);
      await expect(form.getByLabel('Organization')).toHaveValue('Early Ltd');
      await expect(form.getByLabel('Cell Phone')).toHaveValue(/415/);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('heading', { name: 'Tell us about yourself' })).toBeVisible();
    });

  test('hydration moves nothing: no layout shift from the first paint to the live form', async ({ page }) => {
    await page.addInitScript(() => {
      // Each shift with its time, and when the form went live: what the optional parts add once the
      // page is idle (the passkey sign-in below the form, right after hydration now that its chunk
      // comes with the page) is not hydration's.
      const w = window as unknown as { shifts: Array<[number, number]>; liveAt?: number };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>) w.shifts.push([entry.startTime, entry.value]);
      }).observe({ type: 'layout-shift', buffered: true });
      new MutationObserver((_records, observer) => {
        if (!document.querySelector('form[data-fd-live]')) return;
        w.liveAt = performance.now();
        observer.disconnect();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-fd-live'] });
    });
    await delayScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await email(page).waitFor();
    const before = await page.locator('[data-screen] h1').boundingBox();
    await live(page);
    expect(await page.locator('[data-screen] h1').boundingBox()).toEqual(before);
    // Layout-shift entries are delivered after the frame: wait for that frame before reading them.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 100))));
    const { liveAt, shifts } = await page.evaluate(() => {
      const w = window as unknown as { shifts: Array<[number, number]>; liveAt?: number };
      return { liveAt: w.liveAt, shifts: w.shifts };
    });
    expect(liveAt).toBeGreaterThan(0);
    expect(shifts.filter(([at]) => at <= liveAt!).reduce((sum, [, value]) => sum + value, 0)).toBe(0);
  });
});

test('every prerendered route hydrates without a mismatch, in a left-to-right and a right-to-left language', async ({ page }) => {
  test.setTimeout(90_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  for (const lang of ['en-US', 'he']) {
    await page.context().setExtraHTTPHeaders({ 'Accept-Language': lang });
    for (const path of ['/login', '/mlogin', '/register', '/requestActivation', '/resetPassword', '/trialExpiredCall', '/accountMoved']) {
      await page.goto(path);
      const hydrated = await page.evaluate(() => JSON.parse(document.getElementById('root')?.dataset.page ?? '{}') as { hydrate?: boolean });
      expect(hydrated.hydrate, path).toBe(true);
      await page.waitForFunction(
        () =>
          document.querySelector('[data-screen]') !== null && (document.querySelector('form')?.dataset.fdLive !== undefined || !document.querySelector('form')),
      );
      await page.waitForTimeout(300);
    }
  }
  expect(errors).toEqual([]);
});
