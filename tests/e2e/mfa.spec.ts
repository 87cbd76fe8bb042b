import { expect, test, type Page } from '@playwright/test';
import { DEMO_SMS_PHONE, DEMO_TOTP_SECRET, expectAlert, freshDemoTenantForEachTest, outbox, paste, signIn, totpCode } from './helpers';

/** /mfa at sign-in: TOTP, SMS, switching, Duo (popup + realtime channel), errors. WebAuthn: mfa-webauthn.spec.ts. */

const PHONE = DEMO_SMS_PHONE;
const totp = (offsetSteps = 0) => totpCode(DEMO_TOTP_SECRET, offsetSteps);

freshDemoTenantForEachTest();

async function toMfa(page: Page, email: string) {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/mfa\?/);
  await expect(page.getByRole('heading', { name: 'Verify your identity' })).toBeVisible();
}

/** The method chooser: a radio group of method cards, shown only when there is a choice. */
const chooser = (page: Page) => page.getByRole('group', { name: 'Select MFA method' });

const codeField = (page: Page) => page.getByLabel('Verification code');
const submit = (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true });

test.describe('TOTP (tech@)', () => {
  test('a real RFC 6238 code signs in and lands on the signed-in page', async ({ page }) => {
    await toMfa(page, 'tech@demo.test');
    // One method: nothing to choose, the hint names it.
    await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
    await expect(chooser(page)).toHaveCount(0);
    await expect(codeField(page)).toHaveAttribute('autocomplete', 'one-time-code');
    await codeField(page).fill(await totp());
    await submit(page).click();
    await expect(page).toHaveURL(/\/app\/$/);
    await expect(page.getByText('Signed in as tech@demo.test')).toBeVisible();
  });

  test('a pasted code with a space, a dash or spaces around keeps all six digits, and signs in', async ({ page }) => {
    await toMfa(page, 'tech@demo.test');
    for (const pasted of ['123 456', '123-456', ' 123456 ']) {
      await paste(page, codeField(page), pasted);
      await expect(codeField(page)).toHaveValue('123456');
    }
    const code = await totp();
    await paste(page, codeField(page), `${code.slice(0, 3)} ${code.slice(3)}`);
    await expect(codeField(page)).toHaveValue(code);
    await submit(page).click();
    await expect(page).toHaveURL(/\/app\/$/);
  });

  test('format, wrong code and used code errors', async ({ page }) => {
    await toMfa(page, 'tech@demo.test');
    await codeField(page).fill('123');
    await submit(page).click();
    await expectAlert(page, 'Invalid code');
    const right = await totp();
    await codeField(page).fill(right === '000000' ? '111111' : '000000');
    await submit(page).click();
    await expectAlert(page, 'The code is incorrect. Please try again.');
    await expect(page).toHaveURL(/\/mfa\?/);
  });

  test('an expired or used login token shows "Token expired"', async ({ page, browser }) => {
    await toMfa(page, 'tech@demo.test');
    const url = page.url();
    await codeField(page).fill(await totp());
    await submit(page).click();
    await expect(page).toHaveURL(/\/app\/$/);
    const other = await (await browser.newContext()).newPage();
    await other.goto(url);
    await codeField(other).fill(await totp(1));
    await submit(other).click();
    await expectAlert(other, 'Token expired');
  });

  test('a missing or malformed state goes back to /login', async ({ page }) => {
    await page.goto('/mfa');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/mfa?state=not*base64');
    await expect(page).toHaveURL(/\/login$/);
    const noType = Buffer.from(JSON.stringify({ loginToken: 'x', available_mfa: ['TOTP'] })).toString('base64url');
    await page.goto(`/mfa?state=${noType}`);
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('SMS', () => {
  test('sms@: the code from the outbox signs in', async ({ page, request }) => {
    await toMfa(page, 'sms@demo.test');
    await expect(page.getByText('Enter the 6-digit code we sent to your phone.')).toBeVisible();
    await expect(chooser(page)).toHaveCount(0);
    const [message] = await outbox(request, PHONE);
    await codeField(page).fill(message!.code!);
    await submit(page).click();
    await expect(page).toHaveURL(/\/app\/$/);
  });

  test('sms@: Resend code is debounced (three quick clicks send one code)', async ({ page, request }) => {
    await toMfa(page, 'sms@demo.test');
    const before = (await outbox(request, PHONE)).length;
    const resend = page.getByRole('button', { name: 'Resend code' });
    await resend.click();
    await resend.click();
    await resend.click();
    await expect(page.getByText('A new code was sent.')).toBeVisible();
    await page.waitForTimeout(800);
    const after = await outbox(request, PHONE);
    expect(after.length).toBe(before + 1);
    await codeField(page).fill(after[0]!.code!);
    await submit(page).click();
    await expect(page).toHaveURL(/\/app\/$/);
  });

  test('multi@: switching to SMS sends a code and the SMS code signs in', async ({ page, request }) => {
    await toMfa(page, 'multi@demo.test');
    const methods = chooser(page).getByRole('radio');
    await expect(methods).toHaveCount(2);
    await expect(methods.nth(0)).toHaveAccessibleName('Authenticator App');
    await expect(methods.nth(0)).toBeChecked();
    await expect(methods.nth(1)).toHaveAccessibleName('SMS');
    const before = (await outbox(request, PHONE)).length;
    await codeField(page).fill('12');
    await chooser(page).getByRole('radio', { name: 'SMS' }).check();
    await expect(page.getByText('Enter the 6-digit code we sent to your phone.')).toBeVisible();
    await expect(codeField(page)).toHaveValue('');
    const messages = await outbox(request, PHONE);
    expect(messages.length).toBe(before + 1);
    await codeField(page).fill(messages[0]!.code!);
    await submit(page).click();
    await expect(page).toHaveURL(/\/app\/$/);
  });

  test('multi@: a failed switch restores the previous method with "Error switching MFA types"', async ({ page }) => {
    await toMfa(page, 'multi@demo.test');
    await page.route('**/ws/account/switch-mfa', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"INTERNAL"}' }));
    const sms = chooser(page).getByRole('radio', { name: 'SMS' });
    await sms.click();
    await expectAlert(page, 'Error switching MFA types');
    await expect(chooser(page).getByRole('radio', { name: 'Authenticator App' })).toBeChecked();
    await expect(sms).not.toBeChecked();
    // The same choice again is a new attempt (the restore is no user change).
    await page.unroute('**/ws/account/switch-mfa');
    // The chooser ignores changes while the step is busy (aria-busy): as a person, wait until it is not.
    await expect(chooser(page)).not.toHaveAttribute('aria-busy', 'true');
    await sms.click();
    await expect(page.getByText('Enter the 6-digit code we sent to your phone.')).toBeVisible();
  });
});

test.describe('Duo (duo@)', () => {
  async function openPrompt(page: Page) {
    await toMfa(page, 'duo@demo.test');
    await expect(submit(page)).toHaveCount(0);
    await expect(codeField(page)).toHaveCount(0);
    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Continue' }).click();
    const popup = await popupPromise;
    await expect(popup.getByText('Sign-in request for duo@demo.test.')).toBeVisible();
    return popup;
  }

  test('Continue opens the Duo prompt; Approve delivers the code and signs in', async ({ page }) => {
    const popup = await openPrompt(page);
    await popup.getByRole('button', { name: 'Approve' }).click();
    await expect(page).toHaveURL(/\/app\/$/);
    await expect(page.getByText('Signed in as duo@demo.test')).toBeVisible();
    await expect.poll(() => popup.isClosed()).toBe(true);
  });

  test('Deny shows "Failed to authenticate with Duo security"', async ({ page }) => {
    const popup = await openPrompt(page);
    await popup.getByRole('button', { name: 'Deny' }).click();
    await expectAlert(page, 'Failed to authenticate with Duo security');
    await expect(page).toHaveURL(/\/mfa\?/);
  });

  test('while the prompt is open Continue is busy and opens no second prompt; closing the popup early warns and frees it', async ({ page }) => {
    const popup = await openPrompt(page);
    const continueButton = page.getByRole('button', { name: 'Continue' });
    await expect(continueButton).toHaveAttribute('aria-disabled', 'true');
    let popups = 0;
    page.on('popup', () => (popups += 1));
    await continueButton.click({ force: true });
    await expect(popup.getByText('Sign-in request for duo@demo.test.')).toBeVisible();
    await popup.close();
    await expectAlert(page, 'Duo tab was closed before authentication was completed');
    await expect(continueButton).not.toHaveAttribute('aria-disabled', 'true');
    expect(popups).toBe(0);
  });
});
