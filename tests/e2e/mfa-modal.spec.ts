import { expect, test, type Page } from '@playwright/test';
import { DEMO_SMS_PHONE, DEMO_TOTP_SECRET, freshDemoTenantForEachTest, keepRecoveryCodes, outbox, paste, signIn, totpCode } from './helpers';

/** The Verify MFA modal on the signed-in landing page (src/mfa/VerifyMfaModal.tsx, docs/mfa.md). */

const PHONE = DEMO_SMS_PHONE;
const totp = (offsetSteps = 0) => totpCode(DEMO_TOTP_SECRET, offsetSteps);

freshDemoTenantForEachTest();

/** multi@ (TOTP + SMS) through its TOTP second factor to /app/. */
async function toLanding(page: Page) {
  await signIn(page, 'multi@demo.test');
  await expect(page).toHaveURL(/\/mfa\?/);
  await page.getByLabel('Verification code').fill(await totp());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/$/);
}

const openModal = async (page: Page) => {
  await page.getByRole('button', { name: 'Verify MFA', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Verify MFA' });
  await expect(dialog).toBeVisible();
  return dialog;
};

test('TOTP, then SMS with the code from the outbox; Escape and the close button cancel', async ({ page, request }) => {
  await toLanding(page);
  let dialog = await openModal(page);
  await expect(dialog.getByLabel('Select MFA method')).toHaveValue('TOTP');
  const code = dialog.getByLabel('Verification code');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await code.fill('12');
  await dialog.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Invalid code');
  // A pasted code keeps all six digits ("123 456" once lost one to maxlength).
  await paste(page, code, '123 456');
  await expect(code).toHaveValue('123456');
  // The sign-in spent this step's code; the next step's code is good (±1 step), pasted as apps show it.
  const next = await totp(1);
  await paste(page, code, `${next.slice(0, 3)} ${next.slice(3)}`);
  await dialog.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('MFA verified')).toBeVisible();

  dialog = await openModal(page);
  const before = (await outbox(request, PHONE)).length;
  await dialog.getByLabel('Select MFA method').selectOption('SMSOTP');
  await expect(dialog.getByText('A new code was sent.')).toBeVisible();
  const sent = await outbox(request, PHONE);
  expect(sent.length).toBe(before + 1);
  await dialog.getByLabel('Verification code').fill(sent[sent.length - 1]!.code!);
  await dialog.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('MFA verified')).toBeVisible();

  dialog = await openModal(page);
  await expect(page.getByText('MFA verified')).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  dialog = await openModal(page);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('MFA verified')).toBeHidden();
});

test('a switch the server refuses restores the previous method; an ended session closes with "Token expired"', async ({ page }) => {
  await toLanding(page);
  let dialog = await openModal(page);
  await page.route('**/ws/user/mfa/switch', (route) => route.fulfill({ json: { resultCode: 'MFA_NOT_CONFIGURED' } }));
  await dialog.getByLabel('Select MFA method').selectOption('SMSOTP');
  await expect(dialog.getByRole('alert')).toHaveText('Error switching MFA Types');
  await expect(dialog.getByLabel('Select MFA method')).toHaveValue('TOTP');
  await page.keyboard.press('Escape');
  await page.unroute('**/ws/user/mfa/switch');

  dialog = await openModal(page);
  await page.context().clearCookies();
  await dialog.getByLabel('Select MFA method').selectOption('SMSOTP');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'Token expired' })).toBeVisible();
});

test('Duo in the modal: Continue opens the prompt, Approve verifies', async ({ page }) => {
  // duo@ signs in through its own Duo prompt first.
  await signIn(page, 'duo@demo.test');
  await expect(page).toHaveURL(/\/mfa\?/);
  let popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue' }).click();
  let popup = await popupPromise;
  await popup.getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/app\/$/);

  const dialog = await openModal(page);
  await expect(dialog.getByLabel('Select MFA method')).toHaveValue('DUO');
  await expect(dialog.getByLabel('Verification code')).toHaveCount(0);
  popupPromise = page.waitForEvent('popup');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  popup = await popupPromise;
  await expect(popup.getByText('duo@demo.test', { exact: false }).first()).toBeVisible();
  await popup.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('MFA verified')).toBeVisible();
});

test('a hardware key in the modal: the prompt opens by itself and the key verifies', async ({ page }) => {
  // Chromium's virtual authenticator; setup@ enrols a key through /mfa/setup first.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: false, hasUserVerification: false, automaticPresenceSimulation: true },
  });
  await signIn(page, 'setup@demo.test');
  await expect(page).toHaveURL(/\/mfa\/setup\?/);
  await page.getByRole('radio', { name: 'Hardware-Based Security Key' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Security key name').fill('Desk key');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // A first factor set up: the recovery codes are shown once (the key cannot make a passkey: no offer).
  await keepRecoveryCodes(page);
  await expect(page).toHaveURL(/\/app\/$/);
  const before = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount;

  // The key answers at once, so the dialog may be gone before it is seen: the sign count proves it was used.
  await page.getByRole('button', { name: 'Verify MFA', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Verify MFA' })).toBeHidden();
  await expect(page.getByText('MFA verified')).toBeVisible();
  const after = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount;
  expect(after).toBeGreaterThan(before);
});
