import { expect, test, type Page } from '@playwright/test';
import { expectAlert, freshDemoTenantForEachTest, signIn, keepRecoveryCodes } from './helpers';
import { withoutConditionalCreate } from './passkey-browser';

/**
 * Hardware security key (WebAuthn) end to end with Chromium's virtual authenticator (CDP WebAuthn
 * domain). The demo accounts have no key enrolled, so setup@ registers one through /mfa/setup first.
 * The key's sign-in may be answered with a passkey offer: here a browser without conditional create
 * (with a virtual authenticator, Chromium's never settles: passkey-browser.ts), on which a security key
 * gets no offer.
 */

freshDemoTenantForEachTest();
test.beforeEach(async ({ context }) => withoutConditionalCreate(context));

/** Chromium's virtual authenticators: a plain USB key, and a passkey-capable one that verifies its user. */
const AUTHENTICATORS = {
  'a plain key (no resident keys, no user verification)': { hasResidentKey: false, hasUserVerification: false },
  'a key with resident keys and user verification': { hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
} as const;

async function addAuthenticator(
  page: Page,
  kind: { hasResidentKey: boolean; hasUserVerification: boolean; isUserVerified?: boolean } = AUTHENTICATORS[
    'a plain key (no resident keys, no user verification)'
  ],
) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'usb', automaticPresenceSimulation: true, ...kind },
  });
  return { cdp, authenticatorId };
}

async function toKeyStep(page: Page) {
  await signIn(page, 'setup@demo.test');
  await expect(page).toHaveURL(/\/mfa\/setup\?/);
  await page.getByRole('radio', { name: 'Hardware-Based Security Key' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Security key name')).toBeVisible();
}

for (const [name, kind] of Object.entries(AUTHENTICATORS)) {
  test(`${name}: register it in MFA Setup, then sign in with it (no submit button at /mfa)`, async ({ page, context }) => {
    const { cdp, authenticatorId } = await addAuthenticator(page, kind);
    await toKeyStep(page);
    await expect(page.getByText('Configurations depend on device capabilities; a backup method is recommended.', { exact: false })).toBeVisible();
    // No waiting for the key widget's chunk: the step's submit is busy until it has mounted.
    await page.getByLabel('Security key name').fill('Desk key');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // A first factor was set up: its recovery codes are shown once, then the way on.
    await keepRecoveryCodes(page);
    await expect(page).toHaveURL(/\/app\/$/);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);

    await context.clearCookies();
    await signIn(page, 'setup@demo.test');
    // The prompt opens by itself and the assertion is submitted: straight to the signed-in page.
    await expect(page).toHaveURL(/\/app\/$/);
    await expect(page.getByText('Signed in as setup@demo.test')).toBeVisible();
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);
  });
}

test('a click (or Enter) the moment the key step shows, while its widget still loads, sends nothing; then the key registers', async ({ page }) => {
  await addAuthenticator(page);
  // A slow line: the key widget's chunk arrives only when the test lets it.
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/WebAuthnWidget-[^/]+\.js$/, async (route) => {
    await arrived;
    await route.continue();
  });
  const completes: Array<Record<string, unknown>> = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/config-webauthn-complete')) completes.push(request.postDataJSON() as Record<string, unknown>);
  });
  await toKeyStep(page);
  const submit = page.getByRole('button', { name: 'Sign in', exact: true });
  await page.getByLabel('Security key name').fill('Desk key');
  // Shown busy, and an impatient click or Enter does nothing.
  await expect(submit).toHaveAttribute('aria-disabled', 'true');
  await submit.click({ force: true });
  await page.getByLabel('Security key name').press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Error setting up MFA' })).toHaveCount(0);
  release();
  await expect(submit).not.toHaveAttribute('aria-disabled', 'true');
  await submit.click();
  // A first factor was set up: its recovery codes are shown once, then the way on.
  await keepRecoveryCodes(page);
  await expect(page).toHaveURL(/\/app\/$/);
  // Exactly one request, and it carried the credential.
  expect(completes).toHaveLength(1);
  const registration = completes[0]!.webAuthnRegistrationResponse as Record<string, unknown>;
  expect(registration.deviceName).toBe('Desk key');
  expect(registration.tokenResponse).toMatchObject({ type: 'public-key' });
});

test('the security key name is required', async ({ page }) => {
  await addAuthenticator(page);
  await toKeyStep(page);
  await page.getByLabel('Security key name').fill('   ');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expectAlert(page, 'Required');
  await expect(page).toHaveURL(/\/mfa\/setup\?/);
});

test('at /mfa the hardware key has no submit button and offers Retry when the key fails', async ({ page, context }) => {
  const { cdp, authenticatorId } = await addAuthenticator(page);
  await toKeyStep(page);
  await page.getByLabel('Security key name').fill('Desk key');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // A first factor was set up: its recovery codes are shown once, then the way on.
  await keepRecoveryCodes(page);
  await expect(page).toHaveURL(/\/app\/$/);
  await context.clearCookies();

  // Without presence the key never answers in time: the prompt fails, Retry appears.
  await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: false });
  await page.route('**/ws/account/login', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    // A short time-out keeps the test quick; the rest of the request options stay the server's.
    const creds = JSON.parse(String(body.credsRequest)) as { publicKey: Record<string, unknown> };
    creds.publicKey.timeout = 1000;
    await route.fulfill({ response, json: { ...body, credsRequest: JSON.stringify(creds) } });
  });
  await signIn(page, 'setup@demo.test');
  await expect(page).toHaveURL(/\/mfa\?/);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);
  await expectAlert(page, 'The security key could not be used.');
  await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: true });
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
});
