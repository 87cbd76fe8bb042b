import { expect, test } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';
import { REDIRECT_ATTACKS } from '../security/redirect-payloads';

/**
 * Redirect safety in the browser (issue 8): a sample of the attack table (tests/security/redirect-payloads.ts,
 * all of it runs in tests/security/redirects.test.ts) as return_to and redirect_uri of a real sign-in. Each must
 * land on the default page of this site; the server-given moved-account URL is checked the same way.
 */

const SAMPLE = [
  '//evil.com',
  '/\\evil.com',
  '%2F%2Fevil.com',
  'https://help.example.com@evil.com',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/app\r\nLocation: https://evil.com',
  '／／evil.com',
  '/ws/..//evil.com',
  '/.//evil.com',
];

test.describe('return_to / redirect_uri attacks land on the default page', () => {
  test('the sample comes from the shared table', () => {
    for (const payload of SAMPLE) expect(REDIRECT_ATTACKS).toContain(payload);
  });

  for (const [i, payload] of SAMPLE.entries()) {
    const param = i % 2 === 0 ? 'return_to' : 'redirect_uri';
    test(`${param}=${JSON.stringify(payload)}`, async ({ page }) => {
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await signIn(page, 'user@demo.test', PASSWORD, { path: `/login?${param}=${encodeURIComponent(payload)}` });
      await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/eus\/$/);
      await expect(page.getByText('Signed in as user@demo.test')).toBeVisible();
      expect(dialogs).toEqual([]);
      await page.context().clearCookies();
    });
  }

  test('a same-site return_to is still followed (the defence is not a blanket refusal)', async ({ page }) => {
    await signIn(page, 'user@demo.test', PASSWORD, { path: `/login?return_to=${encodeURIComponent('/app/')}` });
    await expect(page).toHaveURL(/\/app\/$/);
  });

  test('single sign-on: a hostile return_to through saml-init and the IdP ends on this site', async ({ page }) => {
    await page.goto(`/login?return_to=${encodeURIComponent('//evil.com/x')}`);
    await page.getByLabel('Email', { exact: true }).fill('sso@demo.test');
    await page.getByRole('button', { name: 'Sign in with Demo IdP' }).click();
    await page.getByRole('button', { name: 'Continue as sso@demo.test' }).click();
    await page.getByRole('button', { name: 'Continue to Demo IdP' }).click();
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/app\/$/);
  });
});

test.describe('the moved-account URL', () => {
  for (const url of ['javascript:alert(document.domain)', 'data:text/html,<script>alert(1)</script>', 'https://user:pw@evil.example/']) {
    test(`${url} is neither linked nor followed`, async ({ page }) => {
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.clock.install();
      await page.route('**/ws/account/login', (r) =>
        r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ resultCode: 'ACCOUNT_MOVED', url }) }),
      );
      await signIn(page, 'moved@demo.test');
      await expect(page.getByRole('heading', { name: 'Account Moved' })).toBeVisible();
      await expect(page.locator('a[href^="javascript:"], a[href^="data:"], a[href*="@evil"]')).toHaveCount(0);
      await page.clock.fastForward(6000);
      await page.waitForTimeout(300);
      expect(new URL(page.url()).host).toMatch(/^localhost:\d+$/);
      expect(dialogs).toEqual([]);
    });
  }
});
