import { expect, test, type APIRequestContext, type Browser, type BrowserContext } from '@playwright/test';
import type { FunnelReport } from '../../catalogue/studio-contract';
import { PASSWORD } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';
import { APPROVER, EDITOR, expectStudioAxeClean, signInToStudio } from './studio-helpers';

/**
 * Issue 38's "done when", as far as it goes: a product manager starts a 50/50 experiment on the
 * sign-in screen in the studio, scripted visitors sign in or leave, the studio's funnel shows each
 * variant's visitors, submits, leaves and completions as the script made them, and promoting the
 * winner shows its text to every new visitor. No request body the page sends carries a typed email or
 * password outside the sign-in call and its e-mail probe. On a server of its own: its funnel counts
 * this test's visitors only. Before it, on another server: an approved change of a text rolled out in
 * the studio's review (100 %, English only) is what a new visitor sees, and no longer once the
 * approver stops it (its promote publishes and rebuilds: tests/server/rollout.test.ts proves it).
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

/** The divider's text a reviewed change rolls out (variant B of the rollout). */
const ROLLOUT_TEXT = 'or, without a password';

test.describe('rollout', () => {
  // A server of its own: the experiment's funnel below counts its own visitors only.
  let own: OwnServer;
  test.beforeAll(async () => {
    own = await startOwnServer();
  });
  test.afterAll(() => own?.stop());

  test('a reviewed change of texts rolled out in the studio: new visitors in the target see it, and none once it is stopped', async ({
    browser,
    playwright,
  }) => {
    test.setTimeout(120_000);
    // The editor drafts the change and asks for a review, the approver approves it (the API: the review's own tests drive its pages).
    const editor = await playwright.request.newContext({ baseURL: own.address });
    expect((await (await editor.post('/ws/account/login', { data: { email: EDITOR, password: PASSWORD } })).json()) as object).toMatchObject({
      resultCode: 'SUCCESS',
    });
    const { locales } = (await (await editor.get('/dev/studio/api/catalogue')).json()) as { locales: Record<string, string> };
    const texts = JSON.parse(locales['en-us/passkey.json'] ?? '{}') as { signIn: Record<string, string> };
    const edited = JSON.stringify({ ...texts, signIn: { ...texts.signIn, or: ROLLOUT_TEXT } }, null, 2);
    const saved = await editor.post('/dev/studio/api/changes', {
      data: { screenId: 'login', locales: { 'en-us/passkey.json': edited }, note: 'Divider wording' },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    const { change } = (await saved.json()) as { change: { id: number; revision: number } };
    expect((await editor.post(`/dev/studio/api/changes/${change.id}/review`, { data: {} })).ok()).toBe(true);

    const pm = await browser.newContext({ baseURL: own.address });
    const studio = await pm.newPage();
    await signInToStudio(studio, APPROVER);
    expect((await studio.request.post(`/dev/studio/api/changes/${change.id}/approve`, { data: { revision: change.revision } })).ok()).toBe(true);
    await studio.getByRole('button', { name: 'Changes and reviews' }).click();
    await studio.getByRole('button', { name: /Divider wording/ }).click();
    const rollout = studio.getByRole('region', { name: 'Roll out before everyone' });
    await rollout.getByLabel('Share of the visitors (%)').fill('100');
    await rollout.getByLabel('Only in these languages').fill('en-us');
    await rollout.getByRole('button', { name: 'Roll out' }).click();
    await expect(rollout.getByRole('status')).toHaveText('Rolling out: 100 % of the visitors in the target see this change.');
    await expect(rollout.getByText('Rolling out to 100 % of the visitors (en-us)', { exact: false })).toBeVisible();
    await expectStudioAxeClean(studio, 'a change being rolled out');

    /** A new visitor's sign-in page once its assignments arrived, and what it was assigned. */
    const visit = async () => {
      const context = await browser.newContext({ baseURL: own.address });
      const page = await context.newPage();
      const assigned = page.waitForResponse((r) => new URL(r.url()).pathname === '/ws/experiments');
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
      const { assignments } = (await (await assigned).json()) as { assignments: Array<{ experiment: string }> };
      return { context, page, rolledOut: assignments.some((a) => a.experiment.startsWith(`change-${change.id}-`)) };
    };
    const inside = await visit();
    expect(inside.rolledOut).toBe(true);
    await expect(inside.page.getByText(ROLLOUT_TEXT, { exact: true })).toBeVisible();
    await inside.context.close();

    // Stop and roll back: the live text for every new visitor.
    await studio.getByRole('button', { name: 'Stop and roll back' }).click();
    await expect(studio.getByRole('status').filter({ hasText: 'Rollout stopped: every visitor sees the live texts again.' })).toBeVisible();
    const after = await visit();
    expect(after.rolledOut).toBe(false);
    await expect(after.page.getByText('or', { exact: true })).toBeVisible();
    await expect(after.page.getByText(ROLLOUT_TEXT, { exact: true })).toHaveCount(0);
    await after.context.close();
    await pm.close();
    await editor.dispose();
  });
});

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
