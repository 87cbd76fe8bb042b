import { expect, test, type Page } from '@playwright/test';
import { expectAlert, freshDemoTenantForEachTest, outbox, signIn, totpCode, keepRecoveryCodes } from './helpers';

/** /mfa/setup ('MFA Setup') for setup@ and setup-nophone@: authenticator app, SMS, phone change, Duo. Hardware key: mfa-webauthn.spec.ts. */

freshDemoTenantForEachTest();

async function toSetup(page: Page, email: string) {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/mfa\/setup\?/);
  await expect(page.getByRole('heading', { name: 'MFA Setup' })).toBeVisible();
  await expect(page.getByText('By continuing you accept the End User License Agreement.')).toBeVisible();
}

async function choose(page: Page, method: string) {
  await page.getByRole('radio', { name: method }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
}

const code = (secret: string, offsetSteps: number) => totpCode(secret, offsetSteps);

test('the chooser offers the four methods; a missing state goes to /login', async ({ page }) => {
  await toSetup(page, 'setup@demo.test');
  // A radio group of method cards, named by its legend.
  const chooser = page.getByRole('group', { name: 'MFA method' });
  await expect(chooser.getByRole('radio')).toHaveCount(4);
  for (const method of ['Hardware-Based Security Key', 'Authenticator App', 'DUO', 'SMS'])
    await expect(chooser.getByRole('radio', { name: method })).toBeVisible();
  await page.goto('/mfa/setup');
  await expect(page).toHaveURL(/\/login$/);
});

test('on arrival Authenticator App is chosen and Continue is there, without touching the chooser', async ({ page }) => {
  await toSetup(page, 'setup@demo.test');
  await expect(page.getByRole('radio', { name: 'Authenticator App' })).toBeChecked();
  // The submit's '/method=TOTP' condition holds from the first render, not only after a change.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
});

test('authenticator app: QR code and key, two consecutive codes, then signed in; the app then works at sign-in', async ({ page, context }) => {
  await toSetup(page, 'setup@demo.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const key = await page.getByLabel('Key', { exact: true }).inputValue();
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel('First code').fill(await code(key, -1));
  await page.getByLabel('Second code').fill('12345');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expectAlert(page, 'Invalid code');
  await page.getByLabel('Second code').fill(await code(key, 0));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // A first factor was set up: its recovery codes are shown once, then the way on.
  await keepRecoveryCodes(page);
  await expect(page).toHaveURL(/\/app\/$/);
  await context.clearCookies();
  await signIn(page, 'setup@demo.test');
  await expect(page).toHaveURL(/\/mfa\?/);
  await page.getByLabel('Verification code').fill(await code(key, 1));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/$/);
});

test('SMS: masked phone, Send Code, Resend code, the code signs in', async ({ page, request }) => {
  await toSetup(page, 'setup@demo.test');
  await choose(page, 'SMS');
  await expect(page.getByText('Codes are sent to +•••••••0188.')).toBeVisible();
  await page.getByRole('button', { name: 'Send Code' }).click();
  await expect(page.getByText('Code sent.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend code' })).toBeVisible();
  const [message] = await outbox(request, '+14155550188');
  await page.getByLabel('Verification code').fill(message!.code!);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // A first factor was set up: its recovery codes are shown once, then the way on.
  await keepRecoveryCodes(page);
  await expect(page).toHaveURL(/\/app\/$/);
});

test('SMS without a phone: the phone form first; unsupported calling codes warn and disable Save; PATCH then code entry', async ({ page, request }) => {
  await toSetup(page, 'setup-nophone@demo.test');
  await choose(page, 'SMS');
  const phone = page.getByLabel('Cell Phone');
  await expect(phone).toBeVisible();
  const save = page.getByRole('button', { name: 'Save phone' });
  // SPEC §5: a warning as soon as the number has an unsupported calling code, and the button disabled.
  await phone.fill('+65 9123 4567');
  await expectAlert(
    page,
    'Phone number provided is from a country that does not support SMS MFA. Please use a different phone number or configure another MFA method.',
  );
  await expect(save).toBeDisabled();
  await phone.press('Enter');
  await expect(phone).toBeVisible();
  for (const code of ['+971 50 123 4567', '+855 12 345 678', '+880 1812 345678']) {
    await phone.fill(code);
    await expect(save).toBeDisabled();
  }
  await phone.fill('+1 415 555 0199');
  await expect(save).toBeEnabled();
  await expect(page.getByText('Phone number provided is from a country that does not support SMS MFA.', { exact: false })).toHaveCount(0);
  await save.click();
  await expect(page.getByText('Codes are sent to +•••••••0199.')).toBeVisible();
  await page.getByRole('button', { name: 'Send Code' }).click();
  await expect(page.getByText('Code sent.')).toBeVisible();
  const [message] = await outbox(request, '+14155550199');
  await page.getByLabel('Verification code').fill(message!.code!);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // A first factor was set up: its recovery codes are shown once, then the way on.
  await keepRecoveryCodes(page);
  await expect(page).toHaveURL(/\/app\/$/);
});

test('SMS: Change phone goes through the phone form and back to code entry', async ({ page }) => {
  await toSetup(page, 'setup@demo.test');
  await choose(page, 'SMS');
  await page.getByRole('button', { name: 'Change phone' }).click();
  await page.getByLabel('Cell Phone').fill('+1 415 555 0177');
  await page.getByRole('button', { name: 'Save phone' }).click();
  await expect(page.getByText('Codes are sent to +•••••••0177.')).toBeVisible();
});

test('DUO: redirects to the Duo enrolment; Approve signs in', async ({ page }) => {
  await toSetup(page, 'setup@demo.test');
  await choose(page, 'DUO');
  await expect(page).toHaveURL(/\/dev\/duo\?setup=/);
  await page.getByRole('button', { name: 'Approve' }).click();
  // A first factor was set up: its recovery codes are shown once, then the way on.
  await keepRecoveryCodes(page);
  await expect(page).toHaveURL(/\/app\/$/);
  await expect(page.getByText('Signed in as setup@demo.test')).toBeVisible();
});
