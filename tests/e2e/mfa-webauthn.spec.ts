import { expect, test, type Page } from '@playwright/test';
import { expectAlert, freshDemoTenantForEachTest, signIn } from './helpers';

/**
 * Hardware security key (WebAuthn) end to end with Chromium's virtual authenticator (CDP WebAuthn
 * domain). The demo accounts have no key enrolled, so setup@ registers one through /mfa/setup first.
 */

freshDemoTenantForEachTest();

async function addAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: false, hasUserVerification: false, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

test('register a key in MFA Setup, then sign in with it (no submit button at /mfa)', async ({ page, context }) => {
  const { cdp, authenticatorId } = await addAuthenticator(page);
  await signIn(page, 'setup@demo.test');
  await expect(page).toHaveURL(/\/mfa\/setup\?/);
  await page.getByLabel('MFA method').selectOption({ label: 'Hardware-Based Security Key' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Configurations depend on device capabilities; a backup method is recommended.', { exact: false })).toBeVisible();
  // The key widget is a lazy chunk; React reveals it a moment after the step (see docs/mfa.md).
  await expect(page.locator('.fd-webauthn')).toBeAttached();
  await page.getByLabel('Security key name').fill('Desk key');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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

test('the security key name is required', async ({ page }) => {
  await addAuthenticator(page);
  await signIn(page, 'setup@demo.test');
  await expect(page).toHaveURL(/\/mfa\/setup\?/);
  await page.getByLabel('MFA method').selectOption({ label: 'Hardware-Based Security Key' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Security key name').fill('   ');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expectAlert(page, 'Required');
  await expect(page).toHaveURL(/\/mfa\/setup\?/);
});

test('at /mfa the hardware key has no submit button and offers Retry when the key fails', async ({ page, context }) => {
  const { cdp, authenticatorId } = await addAuthenticator(page);
  await signIn(page, 'setup@demo.test');
  await expect(page).toHaveURL(/\/mfa\/setup\?/);
  await page.getByLabel('MFA method').selectOption({ label: 'Hardware-Based Security Key' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Security key name')).toBeVisible();
  // The key widget is a lazy chunk; React reveals it a moment after the step (see docs/mfa.md).
  await expect(page.locator('.fd-webauthn')).toBeAttached();
  await page.getByLabel('Security key name').fill('Desk key');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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
