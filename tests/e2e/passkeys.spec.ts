import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { expectAlert, freshDemoTenantForEachTest, keepRecoveryCodes, outbox, setUpAuthenticatorApp, signIn, totpCode } from './helpers';

/**
 * Passkeys end to end in Chromium with its virtual authenticator (CDP WebAuthn domain): the offer
 * after signing in, signing out, and signing in again with the passkey alone, from the autofill list
 * (a discoverable passkey: Chromium's virtual authenticator answers the conditional request itself)
 * and from the button (a passkey that is not discoverable: the typed email lists it). The offer
 * appears only on a device that can make a passkey (a platform authenticator that verifies its user).
 */

freshDemoTenantForEachTest();

interface Authenticator {
  hasResidentKey: boolean;
  hasUserVerification: boolean;
  isUserVerified?: boolean;
  transport?: 'internal' | 'usb';
}

async function addAuthenticator(page: Page, kind: Authenticator): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { transport = 'internal', ...rest } = kind;
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport, automaticPresenceSimulation: true, ...rest },
  });
  return { cdp, authenticatorId };
}

const PLATFORM_WITH_RESIDENT_KEYS: Authenticator = { hasResidentKey: true, hasUserVerification: true, isUserVerified: true };
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
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
}

test('resident keys on: enrol from the offer, sign out, sign in from the autofill list with no password', async ({ page, request }) => {
  const { cdp, authenticatorId } = await addAuthenticator(page, PLATFORM_WITH_RESIDENT_KEYS);
  await enrolFromOffer(page);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  expect((await outbox(request, 'nomfa@demo.test')).map((m) => m.subject)).toContain('A passkey was added to your Front Door account');

  await signOut(page);
  // The email field offers passkeys in the browser's autofill list; the virtual authenticator picks its one.
  await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('autocomplete', 'username webauthn');
  await expect(page).toHaveURL(/\/app\/$/);
  await expect(page.getByText('Signed in as nomfa@demo.test')).toBeVisible();
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);
});

test('resident keys off: the passkey is not discoverable; the typed email and the button sign in with no password', async ({ page }) => {
  const { cdp, authenticatorId } = await addAuthenticator(page, PLATFORM_WITHOUT_RESIDENT_KEYS);
  await enrolFromOffer(page);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(false);

  await signOut(page);
  // Nothing in the autofill list: the page stays on /login until the visitor asks.
  await page.getByLabel('Email', { exact: true }).fill('nomfa@demo.test');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
  await expect(page.getByText('Signed in as nomfa@demo.test')).toBeVisible();
});

test('a passkey signs in an account with MFA without its second factor (a passkey verifies its user)', async ({ page }) => {
  await addAuthenticator(page, PLATFORM_WITHOUT_RESIDENT_KEYS);
  await signIn(page, 'tech@demo.test');
  await expect(page).toHaveURL(/\/mfa\?/);
  await page.getByLabel('Verification code').fill(await totpCode());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
  await signOut(page);
  await page.getByLabel('Email', { exact: true }).fill('tech@demo.test');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
  await expect(page.getByText('Signed in as tech@demo.test')).toBeVisible();
});

test("another account's passkey is refused: the email asks for that account's passkeys only", async ({ page }) => {
  await addAuthenticator(page, PLATFORM_WITHOUT_RESIDENT_KEYS);
  await enrolFromOffer(page);
  await signOut(page);
  // user@ has no passkey: the request lists none of this authenticator's, so nothing signs in.
  await page.getByLabel('Email', { exact: true }).fill('user@demo.test');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expectAlert(page, 'No passkey was used. Try again, or sign in with your password.');
  await expect(page).toHaveURL(/\/login/);
  // Control: the owner's email signs in.
  await page.getByLabel('Email', { exact: true }).fill('nomfa@demo.test');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
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
