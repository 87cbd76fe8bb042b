import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createGuardrails, generate } from 'otplib';
import type { OutboxMessage } from '../../server/delivery/types';

export const PASSWORD = 'Demo-Passw0rd!';

/** Fills the sign-in form as a person would and submits it. */
export async function signIn(page: Page, email: string, password = PASSWORD, options: { staySignedIn?: boolean; path?: string } = {}) {
  await page.goto(options.path ?? '/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (options.staySignedIn) await page.getByLabel('Keep me signed in').check();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Pastes text into a field as a person does: through the clipboard and Ctrl+V (the browser applies maxlength and the like). */
export async function paste(page: Page, field: Locator, text: string) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await field.fill('');
  await field.focus();
  await page.keyboard.press('ControlOrMeta+V');
}

/** The announced form error (role=alert) with exactly this text. */
export async function expectAlert(page: Page, text: string) {
  await expect(page.getByRole('alert').filter({ hasText: text })).toBeVisible();
}

/** Decodes the base64url JSON 'state' query parameter of the current URL. */
export function stateOf(url: string): Record<string, unknown> {
  const raw = new URL(url).searchParams.get('state') ?? '';
  return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** One message of /dev/outbox (the server's own type). */
export type OutboxEntry = OutboxMessage;

export async function outbox(request: APIRequestContext, to: string): Promise<OutboxEntry[]> {
  const response = await request.get(`/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as OutboxEntry[];
}

/** The demo tenant's TOTP secret (tech@, multi@) and SMS phone (sms@, multi@). */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
export const DEMO_SMS_PHONE = '+14155550123';

/** The TOTP code of a secret, offsetSteps 30-second steps from now (the demo secret is 10 bytes). */
export function totpCode(secret = DEMO_TOTP_SECRET, offsetSteps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30, guardrails: createGuardrails({ MIN_SECRET_BYTES: 10 }) });
}

/**
 * Every test of the spec (or describe block) starts from the demo tenant (codes are single use,
 * enrolments and registrations change accounts), and the spec leaves it as found for the specs that
 * run after it on the same server.
 */
export function freshDemoTenantForEachTest(): void {
  const reset = async ({ request }: { request: APIRequestContext }) => {
    expect((await request.post('/dev/reset')).ok()).toBe(true);
  };
  test.beforeEach(reset);
  test.afterAll(reset);
}

/**
 * After a first factor is set up: the recovery codes screen (shown once). Confirms they were saved and
 * goes on; returns the codes as the page showed them.
 */
export async function keepRecoveryCodes(page: Page): Promise<string[]> {
  await expect(page).toHaveURL(/\/mfa\/recovery-codes/);
  await expect(page.getByRole('heading', { level: 1, name: 'Save your recovery codes' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  const codes = await items.allTextContents();
  await page.getByLabel('I have saved my recovery codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  return codes;
}

/** MFA Setup with the preselected authenticator app: Continue, the key, two consecutive codes, Sign in. */
export async function setUpAuthenticatorApp(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Continue' }).click();
  const key = await page.getByLabel('Key', { exact: true }).inputValue();
  await page.getByLabel('First code').fill(await totpCode(key, -1));
  await page.getByLabel('Second code').fill(await totpCode(key, 0));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  return key;
}
