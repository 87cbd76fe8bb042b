import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { DEMO_TOTP_SECRET, PASSWORD, totpCode } from './helpers';
import { addAuthenticator, withoutConditionalCreate } from './passkey-browser';

/**
 * Every screen and state the presentation checks visit (axe in every theme, the pseudo-locale
 * leak test, the screenshot grid). Routes come from the catalogue itself, so a screen added
 * later is visited without editing this file; states behind a sign-in are reached through the
 * demo tenant (docs/server.md), as a visitor would reach them.
 */
export const THEMES = ['theme-ninja-blue', 'theme-one', 'theme-two', 'theme-three', 'theme-four', 'theme-five', 'theme-six'] as const;

/** Sample values for route parameters: demo-tenant codes that keep the visitor on the screen. */
const PARAM_SAMPLES: Record<string, string> = {
  trialLinkCode: 'DEMO-TRIAL',
  invitationCode: 'DEMO-INVITE-EXPIRED',
  activationKey: 'DEMO-DIVISION-ACTIVE',
  verificationCode: 'DEMO-UNKNOWN-CODE',
};

interface CatalogueScreen {
  id: string;
  /** None: the screen is mounted by code (the Verify MFA modal), reached by a visit below. */
  routes?: Array<{ path: string }>;
  requiresSession?: boolean;
  onEnter?: Array<{ operation?: string }>;
}

/** Server calls of the screens (not the page's own config and branding calls). */
const isScreenCall = (url: URL) =>
  (url.pathname.startsWith('/ws/') && url.pathname !== '/ws/app-config') ||
  url.pathname.startsWith('/account/') ||
  url.pathname.startsWith('/expired-account/');

export function catalogueScreens(root = process.cwd()): CatalogueScreen[] {
  const dir = join(root, 'screens');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as CatalogueScreen);
}

/** Concrete URLs for a route pattern: parameters filled; an optional one both with and without. */
export function urlsFor(pattern: string): string[] {
  const fill = (path: string) => path.replace(/:([A-Za-z0-9_]+)\??/g, (_, name: string) => encodeURIComponent(PARAM_SAMPLES[name] ?? 'DEMO'));
  const urls = [fill(pattern)];
  if (/\/:[A-Za-z0-9_]+\?$/.test(pattern)) urls.push(pattern.replace(/\/:[A-Za-z0-9_]+\?$/, '') || '/');
  return urls;
}

export interface Visit {
  /** A readable name, also the screenshot folder name. */
  name: string;
  /**
   * A state reached on purpose (not a catalogue route, which may just redirect to another route's
   * screen): always checked, even when its path and step were seen before (e.g. a form with a server error).
   */
  distinct?: boolean;
  /** Brings the page into the state; the page is settled afterwards. */
  open(page: Page, context: BrowserContext): Promise<void>;
  /** Submit the form empty afterwards to show the field errors as a second state. */
  submitEmpty?: boolean;
  /** The screen's calls never answer: its in-progress state stays on show (no network idle). */
  held?: boolean;
  /** A catalogue route: the path it opens (a visit that ends elsewhere was a redirect, see stateKey). */
  path?: string;
}

/**
 * The sign-in form by its field ids (rjsf: fd_<step>_<field>), not by label: the states are also
 * visited in other languages and in the pseudo-locale, where the labels differ.
 */
const signInForm = (page: Page) => ({
  email: page.locator('#fd_credentials_email'),
  password: page.locator('#fd_credentials_password'),
  submit: page.locator('form.fd-form button[type="submit"]'),
});

/**
 * A route opened, ready to be typed into: once the app has the form. A page in another language than
 * its prerendered one (the pseudo-locale's) is drawn again, and what was typed into the server's page
 * before that is gone with it.
 */
async function openForm(page: Page, url: string) {
  await page.goto(url);
  await page.locator('form.fd-form[data-fd-live]').first().waitFor();
}

async function signInAs(page: Page, context: BrowserContext, email: string) {
  await context.clearCookies();
  await openForm(page, '/login');
  const form = signInForm(page);
  await form.email.fill(email);
  await form.password.fill(PASSWORD);
  await form.submit.click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
}

/** The activation link of inactive@ (demo tenant): the newest one in the outbox, or a new one asked for. */
async function activationLink(page: Page): Promise<string> {
  const newest = async () =>
    ((await (await page.request.get('/dev/outbox?to=inactive%40demo.test')).json()) as { link?: string }[]).find((m) => m.link?.includes('/activate/division/'))
      ?.link;
  const known = await newest();
  if (known) return known;
  await page.request.post('/ws/account/request-activation-email', { data: { email: 'inactive@demo.test' } });
  const link = await newest();
  expect(link, 'an activation link for inactive@demo.test').toBeDefined();
  return link!;
}

/** Every catalogue route (empty-submitted when it shows a form), then the states behind a sign-in. */
export function visits(): Visit[] {
  const list: Visit[] = [];
  for (const screen of catalogueScreens()) {
    if (screen.requiresSession) continue;
    for (const route of screen.routes ?? []) {
      for (const url of urlsFor(route.path)) {
        list.push({ name: url, path: url, open: async (page) => void (await page.goto(url)), submitEmpty: true });
        // A screen that calls the server on entry (activation ...) shows a progress state first,
        // which the answer replaces at once: hold the calls so that state can be checked too.
        if ((screen.onEnter ?? []).some((action) => action.operation)) {
          list.push({
            name: `${url} (waiting for the server)`,
            path: url,
            held: true,
            open: async (page) => {
              await page.route(isScreenCall, () => undefined);
              await page.goto(url);
              await page.locator('[data-screen]').first().waitFor();
            },
          });
        }
      }
    }
  }
  const states: Visit[] = [
    {
      name: 'login: server error shown',
      open: async (page) => {
        await openForm(page, '/login');
        const form = signInForm(page);
        await form.email.fill('nomfa@demo.test');
        await form.password.fill('wrong-password');
        await form.submit.click();
        await expect(page.getByRole('alert').filter({ hasText: /\S/ }).first()).toBeVisible();
      },
    },
    { name: 'signed in (home)', open: (page, context) => signInAs(page, context, 'nomfa@demo.test') },
    { name: 'mfa: authenticator app', open: (page, context) => signInAs(page, context, 'tech@demo.test'), submitEmpty: true },
    { name: 'mfa: sms', open: (page, context) => signInAs(page, context, 'sms@demo.test'), submitEmpty: true },
    { name: 'mfa setup', open: (page, context) => signInAs(page, context, 'setup@demo.test'), submitEmpty: true },
    { name: 'trial expired', open: (page, context) => signInAs(page, context, 'expired@demo.test') },
    // The confirmations need a request (opened directly they go back to the choices): one each.
    ...['extension', 'purchase', 'call'].map((request, index) => ({
      name: `trial expired: ${request} request sent`,
      open: async (page: Page, context: BrowserContext) => {
        await signInAs(page, context, 'expired@demo.test');
        await page.locator('[data-screen="trialExpired"] button').nth(index).click();
        await page.locator('[data-screen^="trialExpired"]:not([data-screen="trialExpired"])').waitFor();
      },
    })),
    {
      name: 'trial expired: back after a request',
      open: async (page, context) => {
        await signInAs(page, context, 'expired@demo.test');
        await page.locator('[data-screen="trialExpired"] button').first().click();
        // The confirmation on show first: a Back before the app has rendered it would undo nothing.
        await page.locator('[data-screen="trialExpiredSent"]').waitFor();
        await page.goBack();
        await page.locator('[data-step="sessionEnded"]').waitFor();
      },
    },
    // A self-registered account's activation link: the password step, and the new-password step.
    ...(['confirm', 'choose'] as const).map((step) => ({
      name: `activation: ${step === 'confirm' ? 'the password chosen at registration' : 'a new password'}`,
      open: async (page: Page) => {
        await page.goto(await activationLink(page));
        await page.locator('[data-step="confirm"]').waitFor();
        if (step === 'choose') {
          await page.locator('[data-step="confirm"] button[type="button"]').last().click();
          await page.locator('[data-step="choose"]').waitFor();
        }
      },
      submitEmpty: true,
    })),
    {
      name: 'password reset: a used or unknown link',
      open: async (page) => {
        await openForm(page, '/resetPassword/DEMO-UNKNOWN-CODE');
        await page.locator('#fd_newPassword_password').fill('Fresh-Passw0rd!');
        await page.locator('#fd_newPassword_passwordConfirm').fill('Fresh-Passw0rd!');
        await page.locator('form.fd-form button[type="submit"]').click();
        await page.locator('[data-step="linkInvalid"]').waitFor();
      },
    },
    {
      name: 'password reset: the code sent by text',
      open: async (page) => {
        await openForm(page, '/resetPassword');
        await page.locator('#fd_request_verifyBy-1').check();
        await page.locator('#fd_request_email').fill('sms@demo.test');
        await page.locator('#fd_request_phoneDigits').fill('0123');
        await page.locator('form.fd-form button[type="submit"]').click();
        await page.locator('[data-step="enterCode"]').waitFor();
      },
      submitEmpty: true,
    },
    {
      // The Verify MFA modal (screens/verifyMfa.json, no route) on the signed-in landing page.
      name: 'signed in: the Verify MFA modal',
      open: async (page, context) => {
        await signInAs(page, context, 'tech@demo.test');
        // This 30 s step's code may be spent by an earlier visit: the next one is good too. The server's
        // answer decides (a fixed wait could try again on a slow machine with the token already spent).
        for (const step of [0, 1, -1]) {
          await page.locator('#fd_verify_code').fill(await totpCode(DEMO_TOTP_SECRET, step));
          const answer = page.waitForResponse((r) => r.url().endsWith('/ws/account/mfa-login') && r.request().method() === 'POST');
          await page.locator('form.fd-form button[type="submit"]').click();
          // A success leaves the page at once (no passkey hop): its body may be gone before it is read.
          const { resultCode } = (await (await answer).json().catch(() => ({}))) as { resultCode?: string };
          if (resultCode === undefined || resultCode === 'SUCCESS') break;
        }
        await page.waitForURL(/\/app\/$/);
        await page.locator('.fd-verify-mfa button').click();
        await page.locator('dialog[open] [data-screen="verifyMfa"] form').waitFor();
      },
    },
    {
      name: 'account moved',
      open: async (page, context) => {
        // The screen leaves for the new server after 5 s (SPEC §9): that navigation is answered
        // 204 No Content, which makes the browser stay on the page while it is checked.
        await page.route(
          (url) => url.searchParams.get('moved') === '1',
          (route) => route.fulfill({ status: 204 }),
        );
        // The page's clock stands still: the countdown stays at its first second and 'Stay on this page'
        // with it, however long the checks take (after 5 s the countdown would reach 0 and the button go).
        await page.clock.setFixedTime(Date.now());
        await signInAs(page, context, 'moved@demo.test');
      },
      held: true,
    },
    {
      name: 'login: single sign-on account',
      open: async (page) => {
        await openForm(page, '/login');
        await signInForm(page).email.fill('sso@demo.test');
        await expect(page.locator('#fd_credentials_password')).toBeHidden();
      },
    },
    { name: 'login on a branded site', open: async (page) => void (await page.goto(`http://branded.localhost:${E2E_PORT}/login`)) },
    { name: 'mfa: choose between methods', open: (page, context) => signInAs(page, context, 'multi@demo.test') },
    {
      name: 'mfa setup: authenticator app',
      open: async (page, context) => {
        await signInAs(page, context, 'setup@demo.test');
        await chooseSetupMethod(page, 'TOTP');
        await page.locator('[data-step="totp"] svg[role="img"]').waitFor();
      },
      submitEmpty: true,
    },
    {
      name: 'mfa setup: text message',
      open: async (page, context) => {
        await signInAs(page, context, 'setup@demo.test');
        await chooseSetupMethod(page, 'SMSOTP');
        await page.locator('[data-step="sms"]').waitFor();
      },
    },
    {
      name: 'mfa setup: phone number',
      open: async (page, context) => {
        await signInAs(page, context, 'setup-nophone@demo.test');
        await chooseSetupMethod(page, 'SMSOTP');
        await page.locator('[data-step="phone"]').waitFor();
      },
      submitEmpty: true,
    },
    {
      name: 'mfa setup: security key',
      open: async (page, context) => {
        await signInAs(page, context, 'setup@demo.test');
        await chooseSetupMethod(page, 'U2F_TOKEN');
        await page.locator('[data-step="key"]').waitFor();
      },
    },
    {
      name: 'passkey offer after signing in',
      open: async (page, context) => {
        // A device that can make a passkey (Chromium's virtual platform authenticator), in a browser
        // whose password manager cannot create one by itself: the offer screen.
        await addAuthenticator(page);
        await withoutConditionalCreate(page);
        await signInAs(page, context, 'nomfa@demo.test');
        await page.locator('[data-step="offer"]').waitFor();
      },
    },
    {
      name: 'recovery codes after setting up a first factor',
      open: async (page, context) => {
        await signInAs(page, context, 'setup@demo.test');
        await chooseSetupMethod(page, 'TOTP');
        const key = await page.locator('#fd_totp_key').inputValue();
        await page.locator('#fd_totp_code').fill(await totpCode(key, -1));
        await page.locator('#fd_totp_secondaryCode').fill(await totpCode(key, 0));
        await page.locator('form.fd-form button[type="submit"]').click();
        await page.locator('[data-screen="recoveryCodes"] ol li').first().waitFor();
      },
      submitEmpty: true,
    },
    {
      name: 'mfa: use a recovery code',
      open: async (page, context) => {
        await signInAs(page, context, 'tech@demo.test');
        // The step's one link-looking button (its parts loaded: it refuses clicks while they load).
        const use = page.locator('[data-step="verify"] button.fd-button--link');
        await expect(use).not.toHaveAttribute('aria-disabled', 'true');
        await use.click();
        await page.locator('[data-step="recovery"]').waitFor();
      },
      submitEmpty: true,
    },
    {
      name: 'register: step 2, about you',
      open: async (page) => {
        await fillRegistration(page, `visual-${Date.now()}@example.test`);
        await page.locator('[data-step="profile"]').waitFor();
      },
      submitEmpty: true,
    },
    {
      name: 'register: account created',
      open: async (page) => {
        await fillRegistration(page, `visual-${Date.now()}@example.test`);
        await page.locator('#fd_profile_businessType-0').check();
        await page.locator('form.fd-form button[type="submit"]').click();
        await page.locator('[data-step="done"]').waitFor();
      },
    },
    {
      name: 'request activation: email sent',
      open: async (page) => {
        await openForm(page, '/requestActivation');
        await page.locator('#fd_request_email').fill('inactive@demo.test');
        await page.locator('form.fd-form button[type="submit"]').click();
        await page.locator('[data-step="sent"]').waitFor();
      },
    },
    {
      name: 'password reset: email sent',
      open: async (page) => {
        await openForm(page, '/resetPassword');
        await page.locator('#fd_request_email').fill('nomfa@demo.test');
        await page.locator('form.fd-form button[type="submit"]').click();
        await page.locator('[data-step="emailSent"]').waitFor();
      },
    },
  ];
  return [...list, ...states.map((state) => ({ ...state, distinct: true }))];
}

/** MFA setup: a method chosen (by its radio's value, not its label) and Continue. */
async function chooseSetupMethod(page: Page, method: string) {
  await page.locator(`[data-step="choose"] input[type="radio"][value="${method}"]`).check();
  await page.locator('form.fd-form button[type="submit"]').click();
}

/** Registration's first step filled with valid answers (by field id) and continued to step 2. */
async function fillRegistration(page: Page, email: string) {
  await openForm(page, '/register');
  const field = (name: string) => page.locator(`#fd_details_${name}`);
  await field('companyName').fill('Acme Ltd');
  await field('firstName').fill('Ada');
  await field('lastName').fill('Lovelace');
  await field('email').fill(email);
  await field('password').fill('Trial-Passw0rd');
  await field('passwordConfirm').fill('Trial-Passw0rd');
  await field('phone').fill('+1 415 555 0142');
  await page.locator('form.fd-form button[type="submit"]').click();
}

/** After a held visit: leave the page, then let the held calls go (they answer nothing now). */
export async function leave(page: Page, visit: Pick<Visit, 'held'>): Promise<void> {
  if (!visit.held) return;
  await page.goto('about:blank');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
}

/** Waits until the app shows a screen (or the not-available page) and nothing is loading. */
export async function settle(page: Page, visit?: Pick<Visit, 'held'>): Promise<void> {
  await page.locator('[data-screen], .fd-page--unavailable').first().waitFor({ state: 'visible' });
  await expect(page.locator('.fd-loading')).toHaveCount(0);
  if (visit?.held) return;
  await page.waitForLoadState('networkidle');
  // Nothing busy: a step's lazily loaded widgets (e.g. the phone input) have come.
  await expect(page.locator('[data-screen] [aria-busy="true"]')).toHaveCount(0);
}

/**
 * What identifies the state on show, so each is checked once; undefined when there is nothing of ours
 * to check: the page is not the app's (e.g. the demo identity provider), or a catalogue route only
 * redirected to another route (that route is visited on its own).
 */
export function stateKey(page: Page, visit: Visit, where: string): string | undefined {
  const path = decodeURIComponent(new URL(page.url()).pathname);
  if (!where || (visit.path !== undefined && path !== visit.path)) return undefined;
  return [path, where, visit.held ? 'waiting' : '', visit.distinct ? visit.name : ''].join(' ');
}

/** The screen and step on show, e.g. 'login/credentials'; '' when the page is not the app's. */
export async function whereAmI(page: Page): Promise<string> {
  // An open modal's screen (the Verify MFA modal) is where the visitor is.
  const modal = page.locator('dialog[open] [data-screen]');
  const screen = (await modal.count()) > 0 ? modal.first() : page.locator('[data-screen]').first();
  if ((await screen.count()) === 0) return (await page.locator('.fd-page--unavailable').count()) > 0 ? 'not-available' : '';
  return `${await screen.getAttribute('data-screen')}/${await screen.getAttribute('data-step')}`;
}

/** Submits the current form as it stands (empty unless prefilled); true when there was a form to submit. */
export async function submitEmpty(page: Page): Promise<boolean> {
  const submit = page.locator('form.fd-form button[type="submit"]').first();
  if ((await submit.count()) === 0 || !(await submit.isVisible())) return false;
  await submit.click();
  await page
    .locator('.fd-field__error, .fd-form-error, .fd-form-warning')
    .first()
    .waitFor({ state: 'visible', timeout: 3000 })
    .catch(() => undefined);
  return true;
}

/** Colour changes (theme, scheme) fade in over a few frames: checks and pictures want the end state. */
async function finishTransitions(page: Page): Promise<void> {
  await page.evaluate(() => document.getAnimations().forEach((animation) => animation instanceof CSSTransition && animation.finish()));
}

export async function setTheme(page: Page, theme: string): Promise<void> {
  await page.evaluate((name) => {
    document.documentElement.dataset.theme = name;
  }, theme);
  await finishTransitions(page);
}

/** The visitor's light or dark preference (prefers-color-scheme). */
export async function setScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await finishTransitions(page);
}

/**
 * The pseudo-locale (catalogue/language/pseudo.ts, written by the build to src/generated/pseudo/) served in
 * place of the en-us chunk: the app runs unchanged, every text of ours accented, bracketed (⟦ ⟧)
 * and about 40 % longer. Visitors never get it; only a test's browser context asks for it.
 */
export async function servePseudoLocale(context: BrowserContext): Promise<void> {
  // The copy taken when this worker's server started (tests/e2e/serve.ts): the one its app was built with.
  const copy = `build/e2e/server-${E2E_PORT}/en-xa.json`;
  const texts = JSON.parse(readFileSync(existsSync(copy) ? copy : 'src/generated/pseudo/en-xa.json', 'utf8')) as Record<string, unknown>;
  // The texts' chunks (tooling/generate/data.ts): en-us-all-<hash>.js, the language whole, and
  // en-us-first-<screen>-<hash>.js, a screen's first texts: each answered with the whole pseudo-locale
  // (a first chunk's files are a part of it; more texts than the screen asked for change nothing shown).
  await context.route(/\/assets\/en-us-(all|first-[A-Za-z]+)-[A-Za-z0-9_-]+\.js$/, (route) =>
    // A page that has left meanwhile (a held visit's leave) no longer wants the answer: nothing to do then.
    // A chunk a page still waits for and never gets leaves its English texts on show: the leak test finds them.
    route.fulfill({ status: 200, contentType: 'text/javascript', body: `export default ${JSON.stringify(texts)};` }).catch(() => undefined),
  );
  // A running experiment's variant texts are the studio's data (written in the experiment, per
  // language), not the locale files': the walk sees the catalogue's texts, as outside any experiment.
  await context.route(/\/ws\/experiments(\?|$)/, (route) => route.fulfill({ json: { assignments: [] } }).catch(() => undefined));
  // The language's loader module (en-us-index-<hash>.js) is not a text chunk: served as built.
  // The server's page is prerendered in English: the app draws it anew in the pseudo-locale instead of hydrating it.
  await context.route(
    (url) => !url.pathname.startsWith('/assets/') && !url.pathname.startsWith('/ws/') && !url.pathname.startsWith('/dev/'),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      // The runner's resolver may not know *.localhost (a branded host), which Chromium maps to this machine.
      const url = new URL(route.request().url());
      const host = url.host;
      if (url.hostname.endsWith('.localhost')) url.hostname = '127.0.0.1';
      const response = await route.fetch({ url: url.toString(), headers: { ...route.request().headers(), host } });
      const body = (await response.text()).replace(/,&quot;hydrate&quot;:true/, '');
      return route.fulfill({ response, body });
    },
  );
}

/** A picture of the design only: no caret, no focus ring from autofocus, no hover, no animation. */
export async function shot(page: Page): Promise<Buffer> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.mouse.move(0, 0);
  return page.screenshot({ fullPage: true, caret: 'hide', animations: 'disabled' });
}

/** A file or folder name for a state ('login: server error shown' -> 'login-server-error-shown'). */
export const slug = (text: string) => text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'root';
