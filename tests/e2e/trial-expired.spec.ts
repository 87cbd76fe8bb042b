import { expect, test, type Page } from '@playwright/test';
import { outbox, signIn } from './helpers';

/** Expired trial (SPEC §2 /trialExpired and confirmations, §4) and account moved. */

test.use({ locale: 'en-US' });

// These flows change demo accounts (activation, passwords, used links): start from the demo tenant
// and leave it as found for the specs that run after on the same server.
test.beforeAll(async ({ request }) => {
  expect((await request.post('/dev/reset')).ok()).toBe(true);
});
test.afterAll(async ({ request }) => {
  expect((await request.post('/dev/reset')).ok()).toBe(true);
});

for (const [button, path, confirmation, subject] of [
  ['Extend trial', '/trialExpiredExtension', 'Trial extension request sent', 'Trial extension request'],
  ['Ready to buy', '/trialExpiredPurchase', 'Purchase request sent', 'Purchase request'],
  ['Request call', '/trialExpiredCall', 'Call request sent', 'Call request'],
] as const) {
  test(`expired@ -> ${button}: request sent, cookie cleared, confirmation with the specialist`, async ({ page, context, request }) => {
    await signIn(page, 'expired@demo.test');
    await expect(page).toHaveURL(/\/trialExpired$/);
    await expect(page.getByRole('heading', { name: 'How can we help you?' })).toBeVisible();
    const card = page.getByRole('region', { name: 'Product Specialist' });
    await expect(card).toContainText('Alex Morgan');
    await expect(card).toContainText('alex.morgan@demo.test');
    expect((await context.cookies()).some((c) => c.name === 'expiredTrialSessionKey')).toBe(true);
    const before = (await outbox(request, 'alex.morgan@demo.test')).length;
    await page.getByRole('button', { name: button }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { name: confirmation })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Product Specialist' })).toContainText('Alex Morgan');
    await expect(page.getByRole('link', { name: 'Need more help?' })).toHaveAttribute('href', 'https://www.example.com/contact-us');
    expect((await context.cookies()).some((c) => c.name === 'expiredTrialSessionKey')).toBe(false);
    const mails = await outbox(request, 'alex.morgan@demo.test');
    expect(mails.length).toBe(before + 1);
    expect(mails[0]?.subject).toBe(subject);
    // Without data or cookie, /trialExpired goes back to /login.
    await page.goto('/trialExpired');
    await expect(page).toHaveURL(/\/login$/);
  });
}

/** Instead of choices that cannot succeed: why, and the way to a second request. */
async function expectSessionEnded(page: Page) {
  await expect(page.getByRole('heading', { name: 'Please sign in again' })).toBeVisible();
  await expect(page.getByText('This page sends one request per sign-in.', { exact: false })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Product Specialist' })).toContainText('Alex Morgan');
  await expect(page.getByRole('button', { name: 'Extend trial' })).toHaveCount(0);
}

test('the choices twice: after one request and Back the page explains; signing in again, a second request goes through', async ({ page, request }) => {
  const before = (await outbox(request, 'alex.morgan@demo.test')).length;
  await signIn(page, 'expired@demo.test');
  await page.getByRole('button', { name: 'Extend trial' }).click();
  await expect(page.getByRole('heading', { name: 'Trial extension request sent' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/trialExpired$/);
  await expectSessionEnded(page);
  await page.getByRole('link', { name: 'Sign in again' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'expired@demo.test');
  await page.getByRole('button', { name: 'Request call' }).click();
  await expect(page.getByRole('heading', { name: 'Call request sent' })).toBeVisible();
  const mails = await outbox(request, 'alex.morgan@demo.test');
  expect(mails.length).toBe(before + 2);
  expect(mails.map((mail) => mail.subject).slice(0, 2)).toEqual(['Call request', 'Trial extension request']);
});

test('a request whose session is gone (used in another tab, or no cookie) explains instead of "try again"', async ({ page, context }) => {
  await signIn(page, 'expired@demo.test');
  await expect(page).toHaveURL(/\/trialExpired$/);
  const other = await context.newPage();
  await other.goto('/trialExpired');
  await other.getByRole('button', { name: 'Ready to buy' }).click();
  await expect(other.getByRole('heading', { name: 'Purchase request sent' })).toBeVisible();
  await other.close();
  // This tab still shows the choices: its request finds the session used.
  await page.getByRole('button', { name: 'Request call' }).click();
  await expectSessionEnded(page);
  await expect(page).toHaveURL(/\/trialExpired$/);
});

test('a confirmation page opened without a request goes to the choices (or to /login without a session)', async ({ page }) => {
  for (const path of ['/trialExpiredCall', '/trialExpiredPurchase', '/trialExpiredExtension']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
  await signIn(page, 'expired@demo.test');
  await expect(page).toHaveURL(/\/trialExpired$/);
  await page.goto('/trialExpiredPurchase');
  await expect(page).toHaveURL(/\/trialExpired$/);
  await expect(page.getByRole('heading', { name: 'How can we help you?' })).toBeVisible();
  await expect(page.getByText('Purchase request sent')).toHaveCount(0);
});

test('moved@: Account Moved with a Login link and a visible countdown, then the new URL after 5 seconds', async ({ page }) => {
  await signIn(page, 'moved@demo.test');
  await expect(page).toHaveURL(/\/accountMoved$/);
  await expect(page.getByRole('heading', { name: 'Account Moved' })).toBeVisible();
  await expect(page.getByText(/^You will be taken there in [45] seconds\.$/)).toBeVisible();
  await expect(page.getByText('You will be taken there in 2 seconds.')).toBeVisible({ timeout: 5000 });
  await expect(page.getByText('You will be taken there in 1 second.')).toBeVisible({ timeout: 2000 });
  await expect(page.getByRole('link', { name: 'Login' })).toHaveAttribute('href', /\/login\?moved=1$/);
  await expect(page).toHaveURL(/\/login\?moved=1$/, { timeout: 8000 });
});
