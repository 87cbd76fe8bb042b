import { expect, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { PASSWORD } from './helpers';

/** The demo tenant's studio people (DEMO-TENANT.md): the editor drafts, the approver approves. */
export const EDITOR = 'editor@demo.test';
export const APPROVER = 'approver@demo.test';

/** Opens the studio and signs in through its form, as a person does. */
export async function signInToStudio(page: Page, email = EDITOR): Promise<void> {
  await page.goto('/dev/studio');
  await expect(page.getByRole('heading', { name: 'Sign in to the screen studio' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/** The studio's API signed in as one of its people (for set-up and clean-up around the browser steps). */
export async function studioApi(playwright: PlaywrightWorkerArgs['playwright'], email = APPROVER): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL: `http://localhost:${E2E_PORT}` });
  const res = await api.post('/dev/studio/api/session', { data: { email, password: PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
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
  const res = await api.post(`/dev/studio/api/versions/${version}/rollback`, { data: { note: 'end of an end-to-end test' } });
  expect([200, 409], await res.text()).toContain(res.status());
  await rebuilt(api);
}
