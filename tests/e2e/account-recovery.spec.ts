import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_TOTP_SECRET, expectAlert, freshDemoTenantForEachTest, keepRecoveryCodes, outbox, setUpAuthenticatorApp, signIn, totpCode } from './helpers';

/**
 * Recovery codes and trusted browsers end to end: the codes shown once after a first factor is set up
 * (copy, download, print, and a confirmation they were kept), each good once at /mfa; "Don't ask again
 * on this device" skips /mfa at the next sign-in, until a password reset.
 */

freshDemoTenantForEachTest();

/** setup@ sets up an authenticator app in MFA Setup; the page then shows its recovery codes. */
async function setUpFirstFactor(page: Page): Promise<string> {
  await signIn(page, 'setup@demo.test');
  await expect(page).toHaveURL(/\/mfa\/setup\?/);
  return setUpAuthenticatorApp(page);
}

async function useRecoveryCode(page: Page, code: string) {
  await signIn(page, 'setup@demo.test');
  await expect(page).toHaveURL(/\/mfa\?/);
  const use = page.getByRole('button', { name: 'Use a recovery code' });
  // The step's parts (the code field, the trust checkbox) load first: until then its buttons are busy.
  await expect(use).not.toHaveAttribute('aria-disabled', 'true');
  await use.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Use a recovery code' })).toBeVisible();
  await page.getByLabel('Recovery code').fill(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('the codes are shown once after setting up a first factor: copy, download, print, and a confirmation', async ({ page, context }) => {
  await setUpFirstFactor(page);
  await expect(page).toHaveURL(/\/mfa\/recovery-codes/);
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = await list.getByRole('listitem').allTextContents();
  for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe('recovery-codes-localhost.txt');
  const file = await readFile((await download.path())!, 'utf8');
  for (const code of codes) expect(file).toContain(code);
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();

  // Going on needs the confirmation that they were kept.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectAlert(page, 'Confirm that you have saved your recovery codes');
  await page.getByLabel('I have saved my recovery codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
  // Shown once: back on the page, they are not shown again.
  await page.goto('/mfa/recovery-codes');
  await expect(page.getByRole('heading', { level: 1, name: 'Recovery codes already shown' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0);
});

test('a recovery code signs in once at /mfa and says how many are left; used again it is refused', async ({ page, context, request }) => {
  test.slow();
  await setUpFirstFactor(page);
  const codes = await keepRecoveryCodes(page);
  await expect(page).toHaveURL(/\/app\/$/);
  await context.clearCookies();

  await useRecoveryCode(page, codes[0]!);
  await expect(page.getByRole('heading', { level: 1, name: 'You are signed in' })).toBeVisible();
  await expect(page.getByText('You have 9 recovery codes left.')).toBeVisible();
  expect((await outbox(request, 'setup@demo.test')).map((m) => m.subject)).toContain('A recovery code was used to sign in to your Front Door account');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/app\/$/);
  await context.clearCookies();

  await useRecoveryCode(page, codes[0]!);
  await expectAlert(page, 'This recovery code is not valid, or it was used already.');
  await expect(page).toHaveURL(/\/mfa\?/);
  // Control: another code of the set signs in; then a new set can be made, which voids the old one.
  await page.getByLabel('Recovery code').fill(codes[1]!.toLowerCase());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('You have 8 recovery codes left.')).toBeVisible();
  await page.getByRole('button', { name: 'Get new recovery codes' }).click();
  const fresh = await keepRecoveryCodes(page);
  expect(fresh).toHaveLength(10);
  expect(fresh).not.toContain(codes[2]);
  await expect(page).toHaveURL(/\/app\/$/);
  await context.clearCookies();
  await useRecoveryCode(page, codes[2]!);
  await expectAlert(page, 'This recovery code is not valid, or it was used already.');
});

test('a trusted browser skips /mfa at the next sign-in, and loses that after a password reset', async ({ page, context, request }) => {
  test.slow();
  await signIn(page, 'tech@demo.test');
  await expect(page).toHaveURL(/\/mfa\?/);
  await page.getByLabel("Don't ask again on this device for 30 days").check();
  await page.getByLabel('Verification code').fill(await totpCode(DEMO_TOTP_SECRET));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/$/);
  const trust = (await context.cookies()).find((c) => c.name === '__Host-fd_trust');
  expect(trust).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'tech@demo.test');
  await expect(page).toHaveURL(/\/app\/$/);
  await expect(page.getByText('Signed in as tech@demo.test')).toBeVisible();

  // Control: another browser is asked for the second factor.
  const other = await (await page.context().browser()!.newContext({ baseURL: page.url() })).newPage();
  await signIn(other, 'tech@demo.test');
  await expect(other).toHaveURL(/\/mfa\?/);
  await other.context().close();

  // A password reset revokes every trusted browser.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/resetPassword');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('tech@demo.test');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password recovery email sent' })).toBeVisible();
  const [mail] = await outbox(request, 'tech@demo.test');
  await page.goto(mail!.link!);
  await page.getByLabel('Password', { exact: true }).fill('Fresh-Passw0rd!');
  await page.getByLabel('Verify password').fill('Fresh-Passw0rd!');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/mfa\?/);
  await context.clearCookies({ name: 'fd_session' });
  await signIn(page, 'tech@demo.test', 'Fresh-Passw0rd!');
  await expect(page).toHaveURL(/\/mfa\?/);
});
