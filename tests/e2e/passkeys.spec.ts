import { expect, test, type Page } from '@playwright/test';
import { expectAlert, freshDemoTenantForEachTest, keepRecoveryCodes, outbox, setUpAuthenticatorApp, signIn, totpCode } from './helpers';
import { addAuthenticator, PLATFORM_WITH_RESIDENT_KEYS, withoutConditionalCreate, type Authenticator } from './passkey-browser';

/**
 * Passkeys end to end in Chromium with its virtual authenticator (CDP WebAuthn domain): the offer
 * after signing in, signing out, and signing in again with the passkey alone from the autofill list
 * (Chromium's virtual authenticator answers the conditional request itself). A passkey must be
 * discoverable (sign-in options name no credential): an authenticator without resident keys makes
 * none. The offer appears only on a device that can make a passkey (a platform authenticator that
 * verifies its user). After a password reset, the success screen lists the account's passkeys, each
 * removable (issue 35).
 * These are the offer screen's: a browser whose password manager cannot create a passkey by itself (no
 * conditional create; Chromium's own path, with no offer screen, is passkeys-ux.spec.ts).
 */
freshDemoTenantForEachTest();
test.beforeEach(async ({ context }) => withoutConditionalCreate(context));

const PLATFORM_WITHOUT_RESIDENT_KEYS: Authenticator = { hasResidentKey: false, hasUserVerification: true, isUserVerified: true };

/** Signs in with the password and creates a passkey from the offer; back on the landing page. */
async function enrolFromOffer(page: Page, email = 'nomfa@demo.test') {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/passkey(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in faster with a passkey' })).toBeVisible();
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Passkey created' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
}

async function signOut(page: Page) {
  // Listening before the click: the autofill's passkey may sign in again at once, so /login can be gone
  // before a poll of the URL would see it.
  await Promise.all([page.waitForURL(/\/login/), page.getByRole('button', { name: 'Sign out' }).click()]);
}

test('resident keys on: enrol from the offer, sign out, sign in from the autofill list with no password', async ({ page, request }) => {
  const { cdp, authenticatorId } = await addAuthenticator(page, PLATFORM_WITH_RESIDENT_KEYS);
  await enrolFromOffer(page);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  expect((await outbox(request, 'nomfa@demo.test')).map((m) => m.subject)).toContain('A passkey was added to your Front Door account');

  // Sign-out opens the sign-in page in this document, and its passkey may sign in again (straight on:
  // issue 37) before a locator could look: an observer notes the email field as it appears.
  await page.evaluate(() => {
    new MutationObserver(() => {
      if (document.querySelector('input[type="email"][autocomplete="username webauthn"]')) sessionStorage.setItem('passkey-autofill-field', 'seen');
    }).observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  await signOut(page);
  await expect(page).toHaveURL(/\/app\/$/);
  // The email field offered passkeys in the browser's autofill list; the virtual authenticator picked its one.
  expect(await page.evaluate(() => sessionStorage.getItem('passkey-autofill-field'))).toBe('seen');
  await expect(page.getByText('Signed in as nomfa@demo.test')).toBeVisible();
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);
});

test('resident keys off: no passkey is made (it could not sign in alone); the visitor goes on without one', async ({ page }) => {
  const { cdp, authenticatorId } = await addAuthenticator(page, PLATFORM_WITHOUT_RESIDENT_KEYS);
  await signIn(page, 'nomfa@demo.test');
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expectAlert(page, 'The passkey was not created. You can try again, or continue without one.');
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(0);
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
});

test('a passkey signs in an account with MFA without its second factor (a passkey verifies its user)', async ({ page }) => {
  await addAuthenticator(page, PLATFORM_WITH_RESIDENT_KEYS);
  await signIn(page, 'tech@demo.test');
  await expect(page).toHaveURL(/\/mfa\?/);
  await page.getByLabel('Verification code').fill(await totpCode());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
  await signOut(page);
  // No password, no code: the autofill list's passkey.
  await expect(page).toHaveURL(/\/app\/$/);
  await expect(page.getByText('Signed in as tech@demo.test')).toBeVisible();
});

test("after a password reset the success screen lists the account's passkeys; one is removed (issue 35)", async ({ page, request }) => {
  await addAuthenticator(page, PLATFORM_WITH_RESIDENT_KEYS);
  await enrolFromOffer(page);
  // The owner resets the password through the emailed link; the list is the browser's that made the reset.
  await page.context().clearCookies();
  await page.goto('/resetPassword');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('nomfa@demo.test');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password recovery email sent' })).toBeVisible();
  const [mail] = await outbox(request, 'nomfa@demo.test');
  await page.goto(mail!.link!);
  await page.getByLabel('Password', { exact: true }).fill('New-Passw0rd!35');
  await page.getByLabel('Verify password').fill('New-Passw0rd!35');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your password was changed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove all passkeys' })).toBeVisible();
  const passkey = page.getByRole('list', { name: 'Passkeys of your account' }).getByRole('listitem');
  await expect(passkey).toHaveCount(1);
  await expect(passkey).toContainText('Chrome');
  await expect(passkey).toContainText('Never used');
  await passkey.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The passkey was removed. It no longer signs in.' })).toBeVisible();
  await expect(page.getByText('No passkey signs in to your account.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
});

test('no offer on a device that cannot make a passkey, nor after "Don\'t ask again"; "Not now" goes on', async ({ page, context }) => {
  // A security key (USB) is no platform authenticator: straight to the landing page.
  await addAuthenticator(page, { hasResidentKey: true, hasUserVerification: true, isUserVerified: true, transport: 'usb' });
  await signIn(page, 'nomfa@demo.test');
  await expect(page).toHaveURL(/\/app\/$/);
  await context.clearCookies();

  const other = await context.newPage();
  await addAuthenticator(other, PLATFORM_WITH_RESIDENT_KEYS);
  await signIn(other, 'user@demo.test');
  await other.getByRole('button', { name: 'Not now' }).click();
  await expect(other).toHaveURL(/\/eus\/$/);
  await context.clearCookies();
  await signIn(other, 'nomfa@demo.test');
  await other.getByRole('button', { name: "Don't ask again" }).click();
  await expect(other).toHaveURL(/\/app\/$/);
  await context.clearCookies();
  await signIn(other, 'nomfa@demo.test');
  await expect(other).toHaveURL(/\/app\/$/);
});

test('a platform authenticator that cannot verify its user gets no offer', async ({ page }) => {
  await addAuthenticator(page, { hasResidentKey: true, hasUserVerification: false });
  await signIn(page, 'nomfa@demo.test');
  await expect(page).toHaveURL(/\/app\/$/);
});

test('done when: a new account, from registration to signing in with only a passkey', async ({ page, request }) => {
  test.slow();
  const email = `passkey-${Date.now()}@acme.test`;
  const password = 'Trial-Passw0rd';
  await addAuthenticator(page, PLATFORM_WITH_RESIDENT_KEYS);
  await page.goto('/register');
  const form = page.locator('form.fd-form');
  await form.getByLabel('Organization').fill('Acme Ltd');
  await form.getByLabel('First Name').fill('Ada');
  await form.getByLabel('Last Name').fill('Lovelace');
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Verify Password').fill(password);
  await form.getByLabel('Cell Phone').fill('+1 415 555 0142');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('group', { name: 'Business type' }).getByLabel('Managed service provider (MSP)').check();
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Account successfully created.' })).toBeVisible();
  const [mail] = await outbox(request, email);
  await page.goto(mail!.link!);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Activate' }).click();
  // The platform asks new accounts for a first factor: the authenticator app, then its recovery codes.
  await expect(page).toHaveURL(/\/mfa\/setup\?state=/);
  await setUpAuthenticatorApp(page);
  await keepRecoveryCodes(page);
  // Then the offer: a passkey on this device.
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
  await signOut(page);
  // No password, no code: the passkey from the email field's autofill list.
  await expect(page).toHaveURL(/\/app\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});
