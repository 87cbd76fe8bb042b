import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeOptions } from './axe';
import { freshDemoTenantForEachTest, PASSWORD, totpCode } from './helpers';
import { settle } from './screen-states';

/**
 * Arabic and Hebrew: right to left from the server's first byte to the signed-in page, with the
 * checks every language passes (labels, autocomplete, errors linked and announced, keyboard, axe),
 * the mirrored parts (the card's text, the password toggle, the pickers) and what stays left to right
 * (email, phone and code inputs), and ICU plural forms of Arabic. Every screen state in both
 * languages, light and dark, with axe: the screenshot grid (tests/e2e/visual.spec.ts).
 */
freshDemoTenantForEachTest();

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not visible');
  return { left: b.x, right: b.x + b.width, centre: b.x + b.width / 2 };
};
const style = (locator: Locator, property: string) => locator.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

async function signInWith(page: Page, labels: { email: string; password: string; submit: string }, email: string) {
  await page.goto('/login');
  await page.getByLabel(labels.email, { exact: true }).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: labels.submit, exact: true }).click();
}

const ARABIC = { email: 'البريد الإلكتروني', password: 'كلمة المرور', submit: 'تسجيل الدخول' };
const HEBREW = { email: 'דוא״ל', password: 'סיסמה', submit: 'כניסה' };

test.describe('Arabic', () => {
  test.use({ locale: 'ar' });

  test('/login renders right to left, mirrored, with every check of the other languages passing', async ({ page, request }) => {
    // The server's static page is already right to left, before any script runs.
    const html = await (await request.get('/login', { headers: { accept: 'text/html', 'accept-language': 'ar' } })).text();
    expect(html).toContain('<html lang="ar" dir="rtl"');
    expect(html).toContain('<h1 class="fd-screen__title">تسجيل الدخول</h1>');

    await page.goto('/login');
    await settle(page);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page).toHaveTitle(/^تسجيل الدخول \| /);
    await expect(page.getByRole('heading', { level: 1, name: 'تسجيل الدخول' })).toBeVisible();

    const email = page.getByLabel(ARABIC.email, { exact: true });
    const password = page.getByLabel(ARABIC.password, { exact: true });
    await expect(email).toHaveAttribute('autocomplete', 'username webauthn');
    await expect(password).toHaveAttribute('autocomplete', 'current-password');
    // Labels start at the right edge of their field; an email stays left to right, aligned with them.
    const label = page.locator('label[for="fd_credentials_email"]');
    expect(Math.abs((await box(label)).right - (await box(email)).right)).toBeLessThan(2);
    expect(await style(email, 'direction')).toBe('ltr');
    expect(await style(email, 'text-align')).toBe('right');
    // The password toggle sits at the input's end: its left side in Arabic.
    const toggle = page.getByRole('button', { name: 'إظهار كلمة المرور' });
    expect((await box(toggle)).centre).toBeLessThan((await box(password)).centre);
    // The language picker at the card's end edge: the left.
    const picker = page.getByLabel('اللغة');
    expect((await box(picker)).right).toBeLessThan((await box(page.locator('.fd-screen'))).centre);
    await expect(picker).toHaveValue('ar');

    expect((await new AxeBuilder({ page }).options(axeOptions).analyze()).violations.map((v) => v.id)).toEqual([]);

    // Errors in Arabic, linked to their field and announced.
    await page.getByRole('button', { name: ARABIC.submit, exact: true }).click();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(/لا يمكن ترك حقل البريد الإلكتروني فارغًا/);
    await expect(page.getByRole('alert').filter({ hasText: 'لا يمكن ترك حقل البريد الإلكتروني فارغًا' })).toBeVisible();
    expect((await new AxeBuilder({ page }).options(axeOptions).analyze()).violations.map((v) => v.id)).toEqual([]);

    // From the keyboard alone, to the signed-in page, still in Arabic.
    await email.focus();
    await page.keyboard.type('nomfa@demo.test');
    await page.keyboard.press('Tab');
    await expect(password).toBeFocused();
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/app\/$/);
    await expect(page.getByText('تم تسجيل الدخول باسم nomfa@demo.test')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  });

  test('the Account Moved countdown takes the Arabic plural forms (few, two, one)', async ({ page }) => {
    // The screen leaves for the new server after 5 s: that navigation is answered 204 (the page stays).
    await page.route(
      (url) => url.searchParams.get('moved') === '1',
      (route) => route.fulfill({ status: 204 }),
    );
    await signInWith(page, ARABIC, 'moved@demo.test');
    await expect(page.getByRole('heading', { name: 'تم نقل الحساب' })).toBeVisible();
    await expect(page.getByText(/^سيتم نقلك إلى هناك خلال [3-5٣-٥] ثوانٍ\.$/)).toBeVisible();
    await expect(page.getByText('سيتم نقلك إلى هناك خلال ثانيتين.')).toBeVisible({ timeout: 5000 });
    await expect(page.getByText('سيتم نقلك إلى هناك خلال ثانية واحدة.')).toBeVisible({ timeout: 2000 });
  });

  test('registration: the phone number stays left to right', async ({ page }) => {
    await page.goto('/register');
    await settle(page);
    const phone = page.getByLabel('الهاتف المحمول', { exact: true });
    await expect(phone).toHaveAttribute('dir', 'ltr');
    await phone.fill('+1 415 555 0142');
    expect(await style(phone, 'direction')).toBe('ltr');
    await expect(phone).toHaveValue('+1 415 555 0142');
    // The form's language field (the page's switcher has the same label) names each language in itself.
    await expect(page.locator('form.fd-form').getByLabel('اللغة', { exact: true }).locator('option[value="he"]')).toHaveText('עברית');
  });
});

test.describe('Hebrew', () => {
  test('the picker switches to right to left and back, without a reload', async ({ page }) => {
    await page.goto('/login');
    await settle(page);
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await page.evaluate(() => ((window as unknown as { fdMarker: number }).fdMarker = 7));
    await page.getByLabel('Language').selectOption('he');
    await expect(page.getByRole('button', { name: HEBREW.submit, exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'he');
    expect(await page.evaluate(() => (window as unknown as { fdMarker?: number }).fdMarker)).toBe(7);
    await page.getByLabel('שפה').selectOption('en-us');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  });

  test.describe('as the browser language', () => {
    test.use({ locale: 'he-IL' });

    test('/mfa: the code stays left to right, takes digits typed on an Arabic keyboard, and signs in', async ({ page }) => {
      await signInWith(page, HEBREW, 'tech@demo.test');
      await expect(page).toHaveURL(/\/mfa\?/);
      await expect(page.getByRole('heading', { name: 'אימות הזהות שלך' })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      const code = page.getByLabel('קוד אימות', { exact: true });
      await expect(code).toHaveAttribute('dir', 'ltr');
      await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
      await code.fill('١٢٣ ٤٥٦');
      await expect(code).toHaveValue('123456');
      expect((await new AxeBuilder({ page }).options(axeOptions).analyze()).violations.map((v) => v.id)).toEqual([]);
      await code.fill(await totpCode());
      await page.getByRole('button', { name: HEBREW.submit, exact: true }).click();
      await expect(page).toHaveURL(/\/app\/$/);
      await expect(page.getByText('החשבון המחובר: tech@demo.test')).toBeVisible();
    });
  });
});
