import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { axeOptions } from './axe';
import { PASSWORD } from './helpers';

/** The demo tenant's studio people (DEMO-TENANT.md): the editor drafts, the approver approves. */
export const EDITOR = 'editor@demo.test';
export const APPROVER = 'approver@demo.test';

/**
 * Opens the studio and signs in as a person does: Sign in leads to the app's sign-in page, which
 * comes back to the studio (studio people sign in like everyone: its limits, its second factor).
 */
export async function signInToStudio(page: Page, email = EDITOR): Promise<void> {
  await page.goto('/dev/studio');
  await expect(page.getByRole('heading', { name: 'Sign in to the screen studio' })).toBeVisible();
  // Demo mode: the demo's people have no second factor, and the page says so.
  await expect(page.getByText('Demo mode: editor@demo.test and approver@demo.test sign in with the demo password alone.', { exact: false })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dev\/studio$/);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/** The studio's API signed in as one of its people (for set-up and clean-up around the browser steps): the app's sign-in. */
export async function studioApi(playwright: PlaywrightWorkerArgs['playwright'], email = APPROVER): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL: `http://localhost:${E2E_PORT}` });
  const res = await api.post('/ws/account/login', { data: { email, password: PASSWORD } });
  expect(((await res.json()) as { resultCode?: string }).resultCode, await res.text()).toBe('SUCCESS');
  return api;
}

export async function latestVersion(api: APIRequestContext): Promise<number> {
  const { versions } = (await (await api.get('/dev/studio/api/versions')).json()) as { versions: Array<{ number: number }> };
  return versions[0]?.number ?? 0;
}

/** Waits until the running app's rebuild is over. */
export async function rebuilt(api: APIRequestContext): Promise<void> {
  await expect
    .poll(async () => ((await (await api.get('/dev/studio/api/publish')).json()) as { state: string }).state, { timeout: 240_000, intervals: [1000] })
    .not.toBe('running');
}

/** Puts the catalogue back as at `version` (a rollback, recorded like any other) and waits for the rebuild. */
export async function restoreVersion(api: APIRequestContext, version: number): Promise<void> {
  if ((await latestVersion(api)) === version) return;
  const res = await api.post(`/dev/studio/api/versions/${version}/rollback`, { data: { latest: await latestVersion(api), note: 'end of an end-to-end test' } });
  expect([200, 409], await res.text()).toContain(res.status());
  await rebuilt(api);
}

/**
 * The spec (or describe block) leaves the catalogue as it found it: whatever its tests published is
 * rolled back, and the rebuild awaited, after the last one. Returns the version it found (once the first test runs).
 */
export function restoreCatalogueAfterAll(): () => number {
  let before = 0;
  test.beforeAll(async ({ playwright }) => {
    before = await latestVersion(await studioApi(playwright));
  });
  test.afterAll(async ({ playwright }) => {
    test.setTimeout(300_000);
    await restoreVersion(await studioApi(playwright), before);
  });
  return () => before;
}

/**
 * The studio's own controls pass axe (WCAG 2.2 AA); each finding is named with `where`. The preview
 * is the app's screen, audited in every state by a11y.spec.ts. CodeMirror's scroller holds a focusable
 * contenteditable, which axe's scrollable-region rule does not look into.
 */
export async function expectStudioAxeClean(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .options(axeOptions)
    .disableRules(['scrollable-region-focusable'])
    .exclude('[data-testid="studio-preview"]')
    .analyze();
  expect(violations.map((v) => `${where}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
