import { expect, test, type APIRequestContext, type Browser, type BrowserContext } from '@playwright/test';
import type { FunnelReport } from '../../catalogue/studio-contract';
import { PASSWORD } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';
import { APPROVER, expectStudioAxeClean, signInToStudio } from './studio-helpers';

/**
 * Issue 38's "done when", as far as it goes: a product manager starts a 50/50 experiment on the
 * sign-in screen in the studio, scripted visitors sign in or leave, the studio's funnel shows each
 * variant's visitors, submits, leaves and completions as the script made them, and promoting the
 * winner shows its text to every new visitor. No request body the page sends carries a typed email or
 * password outside the sign-in call and its e-mail probe. On a server of its own: its funnel counts
 * this test's visitors only.
 */
const EXPERIMENT = 'login-divider';
const B_TEXT = 'or else';
const VISITORS = 6;

let server: OwnServer;
test.beforeAll(async () => {
  server = await startOwnServer();
});
test.afterAll(() => server?.stop());

/** A browser of its own (its own fd_vid), every request body it sends kept. */
async function visitor(browser: Browser, bodies: Array<{ url: string; body: string }>): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.address });
  context.on('request', (request) => {
    const body = request.postData();
    if (body) bodies.push({ url: new URL(request.url()).pathname, body });
  });
  return context;
}

/** The variant this browser is in (the server's own assignment, with its cookie). */
async function variantOf(request: APIRequestContext): Promise<string> {
  const { assignments } = (await (await request.get('/ws/experiments')).json()) as { assignments: Array<{ experiment: string; variant: string }> };
  return assignments.find((a) => a.experiment === EXPERIMENT)?.variant ?? '?';
}

test('a 50/50 experiment on the sign-in: the studio counts the scripted visitors, and the promoted winner is what new visitors see', async ({ browser }) => {
  test.setTimeout(180_000);
  const pm = await browser.newContext({ baseURL: server.address });
  const studio = await pm.newPage();
  await signInToStudio(studio, APPROVER);
  await studio.getByRole('button', { name: 'Funnel and experiments' }).click();
  // The editor stays mounted (hidden) beside the view: look inside the view.
  const view = studio.getByRole('region', { name: 'Funnel', exact: true });
  await view.getByLabel('Screen', { exact: true }).selectOption('login');
  await view.getByLabel('Experiment name', { exact: true }).fill(EXPERIMENT);
  await view.getByLabel('Text key', { exact: true }).fill('passkey.signIn.or');
  await view.getByLabel("Variant B's text (English)").fill(B_TEXT);
  await view.getByRole('button', { name: 'Start the experiment' }).click();
  await expect(view.getByRole('status').filter({ hasText: `Experiment ${EXPERIMENT} is running` })).toBeVisible();

  const bodies: Array<{ url: string; body: string }> = [];
  const expected: Record<string, { visitors: number; completed: number; left: number }> = {};
  const typed: string[] = [PASSWORD];
  // Open until the studio has counted them: a page still open sends its queue every few seconds.
  const visitors: BrowserContext[] = [];
  for (let i = 0; i < VISITORS; i += 1) {
    const context = await visitor(browser, bodies);
    const page = await context.newPage();
    const assigned = page.waitForResponse((r) => new URL(r.url()).pathname === '/ws/experiments');
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await assigned;
    const variant = await variantOf(context.request);
    const counts = (expected[variant] ??= { visitors: 0, completed: 0, left: 0 });
    counts.visitors += 1;
    if (variant === 'B') await expect(page.getByText(B_TEXT, { exact: true })).toBeVisible();
    if (i % 2 === 0) {
      await page.getByLabel('Email', { exact: true }).fill('nomfa@demo.test');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page).not.toHaveURL(/\/login/);
      counts.completed += 1;
    } else {
      const email = `leaver${i}@example.test`;
      typed.push(email);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      // Leaving: pagehide sends the leave with navigator.sendBeacon.
      await page.goto('about:blank');
      counts.left += 1;
    }
    visitors.push(context);
  }

  // The studio's numbers: the API first (the events arrive in their own time), then the page.
  await expect
    .poll(async () => {
      const report = (await (await studio.request.get('/dev/studio/api/funnel?screen=login')).json()) as FunnelReport;
      return Object.fromEntries(
        report.variants
          .filter((v) => v.variant !== '-')
          .map((v) => {
            const step = v.steps.find((s) => s.step === 'credentials');
            return [v.variant, { visitors: v.visitors, completed: v.completed, left: step?.left ?? 0 }];
          }),
      );
    })
    .toEqual(expected);
  for (const context of visitors) await context.close();
  await view.getByLabel('Screen', { exact: true }).selectOption('passkeyOffer');
  await view.getByLabel('Screen', { exact: true }).selectOption('login');
  for (const [variant, counts] of Object.entries(expected)) {
    const table = view.getByRole('table', { name: `Variant ${variant}: steps` });
    const row = table.getByRole('row', { name: /credentials/ });
    await expect(row.getByRole('cell').first()).toHaveText(String(counts.visitors));
    await expect(row.getByRole('cell').nth(1)).toHaveText(String(counts.completed));
    await expect(row.getByRole('cell').nth(3)).toHaveText(String(counts.left));
    await expect(view.getByRole('region', { name: `Variant ${variant}`, exact: true })).toContainText(`${counts.visitors} visitor`);
  }

  await expectStudioAxeClean(studio, 'the funnel view');

  // Promote B: every new visitor sees its text.
  await view.getByRole('button', { name: 'Promote B' }).click();
  await expect(view.getByRole('status').filter({ hasText: 'Variant B is promoted' })).toBeVisible();
  for (let i = 0; i < 2; i += 1) {
    const context = await visitor(browser, bodies);
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.getByText(B_TEXT, { exact: true })).toBeVisible();
    await context.close();
  }

  // Privacy: the funnel's calls were made, and no body but the sign-in's and its probe's carries what was typed.
  expect(bodies.some((b) => b.url === '/ws/events')).toBe(true);
  const elsewhere = bodies.filter((b) => b.url !== '/ws/account/login' && b.url !== '/ws/account/authentication-state');
  for (const value of typed) expect(elsewhere.filter((b) => b.body.includes(value)).map((b) => b.url)).toEqual([]);
  await pm.close();
});
