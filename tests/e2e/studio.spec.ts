import { expect, test, type Page } from '@playwright/test';
import { signInToStudio } from './studio-helpers';

/**
 * The dev-only screen studio at /dev/studio: every screen renders with the real engine, language,
 * theme and brand switch, result codes are simulated, validation errors show, and a broken edit is
 * reported with file, position, pointer and reason and refused on save.
 */
const preview = (page: Page) => page.getByTestId('studio-preview');

async function openStudio(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signInToStudio(page);
  await expect(page.getByTestId('studio-screen')).toBeVisible();
  await expect(page.getByText('No problems: the catalogue check passes.')).toBeVisible({ timeout: 15_000 });
  return errors;
}

async function pickScreen(page: Page, id: string) {
  await page.getByTestId('studio-screen').selectOption(id);
  await expect(page.getByTestId('studio-problems')).toContainText('No problems', { timeout: 15_000 });
}

test('the studio page has its own CSP and is a separate bundle from the app', async ({ page, request }) => {
  const response = await request.get('/dev/studio');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-security-policy']).toContain("'unsafe-eval'");
  const html = await response.text();
  expect(html).toContain('/dev/studio/assets/');
  const app = await request.get('/login', { headers: { accept: 'text/html' } });
  expect(await app.text()).not.toContain('/dev/studio');
  expect(app.headers()['content-security-policy']).not.toContain('unsafe-eval');
  await page.goto('/dev/studio');
  // Nobody is signed in: the page asks who you are, and the API answers nothing.
  await expect(page.getByRole('heading', { name: 'Sign in to the screen studio' })).toBeVisible();
  expect((await request.get('/dev/studio/api/catalogue')).status()).toBe(401);
});

test('every screen renders in the studio with the real engine', async ({ page }) => {
  // Each screen is checked by the server (a full catalogue check) before it renders: ~2 s apiece.
  test.setTimeout(180_000);
  const errors = await openStudio(page);
  const ids = await page
    .getByTestId('studio-screen')
    .locator('option')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(ids.length).toBeGreaterThan(5);
  for (const id of ids) {
    await pickScreen(page, id);
    // The screen itself, or — when its on-enter logic leaves at once (no cookie, no state) — the
    // studio's note of where it went; never a crash.
    await expect(preview(page).locator(`[data-screen="${id}"], [data-testid="studio-left"]`).first()).toBeVisible();
    await expect(preview(page).getByText('The preview stopped')).toHaveCount(0);
  }
  expect(errors).toEqual([]);
});

test('language, theme and brand switch the preview', async ({ page }) => {
  await openStudio(page);
  await pickScreen(page, 'login');
  await expect(preview(page).getByLabel('Email', { exact: true })).toBeVisible();

  const languages = await page
    .getByTestId('studio-language')
    .locator('option')
    .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
  for (const lang of languages) {
    await page.getByTestId('studio-language').selectOption(lang);
    await expect(preview(page)).toHaveAttribute('lang', lang);
    await expect(preview(page).locator('[data-screen="login"]')).toBeVisible();
  }
  // The preview reads the texts of the chosen language (compared with the file, not hard-coded).
  if (languages.includes('de-de')) {
    const texts = await page.request.get('/dev/studio/api/catalogue').then(async (r) => ((await r.json()) as { locales: Record<string, string> }).locales);
    const de = JSON.parse(texts['de-de/login.json'] ?? '{}') as { submit?: string };
    await page.getByTestId('studio-language').selectOption('de-de');
    await expect(preview(page).getByRole('button', { name: de.submit ?? '', exact: true })).toBeVisible();
  }
  await page.getByTestId('studio-language').selectOption('en-us');

  for (const theme of ['theme-three', 'theme-six', 'theme-ninja-blue']) {
    await page.getByTestId('studio-theme').selectOption(theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  }

  // Default site (development, self-registration on): the registration link shows; branded: it does not.
  await page.getByText('More preview options').click();
  await expect(preview(page).getByRole('link', { name: 'Do not have an account?' })).toBeVisible();
  await page.getByTestId('studio-brand').selectOption('branded');
  await expect(preview(page).getByRole('link', { name: 'Do not have an account?' })).toHaveCount(0);
  await expect(preview(page).getByRole('img', { name: 'Acme IT' })).toBeVisible();
  await page.getByTestId('studio-brand').selectOption('default');
  await expect(preview(page).getByRole('link', { name: 'Do not have an account?' })).toBeVisible();
});

test('validation errors show as visitors see them', async ({ page }) => {
  await openStudio(page);
  await pickScreen(page, 'login');
  await preview(page).getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(preview(page).locator('.fd-field-error, [id$="__error"], .error-detail').first()).toBeVisible();
});

test('result codes are simulated: plan, where it leads, and the effect in the preview', async ({ page }) => {
  await openStudio(page);
  await pickScreen(page, 'login');
  const sim = page.getByTestId('studio-simulator');
  const options = await page
    .getByTestId('studio-call')
    .locator('option')
    .evaluateAll((o) => o.map((x) => ({ value: (x as HTMLOptionElement).value, label: x.textContent ?? '' })));
  const loginCall = options.find((o) => o.label.startsWith('Submit → login'));
  expect(loginCall).toBeDefined();
  await page.getByTestId('studio-call').selectOption(loginCall?.value ?? '');

  await expect(sim.locator('tr[data-code="MFA_REQUIRED"] [data-testid="studio-leads-to"]')).toContainText('(screen mfa)');
  // A sign-in's answer decides the passkey step (issue 37): SUCCESS itself signs in, no screen of its own.
  await expect(sim.locator('tr[data-code="SUCCESS"]')).toContainText('signed in: leaves the app for return_to or the landing page');
  await expect(sim.locator('tr[data-code="AUTHENTICATION_FAILURE"]')).toContainText('Invalid username/password');

  await sim.locator('tr[data-code="ACCOUNT_SUSPENDED"] code').click();
  await expect(page.getByTestId('studio-plan')).toContainText('"error"');

  await preview(page).getByLabel('Email', { exact: true }).fill('someone@example.com');
  await preview(page).getByLabel('Password', { exact: true }).fill('whatever-1');
  await sim.locator('tr[data-code="AUTHENTICATION_FAILURE"]').getByRole('button', { name: 'Run in preview' }).click();
  await expect(preview(page).getByRole('alert').filter({ hasText: 'Invalid username/password' })).toBeVisible();

  await sim.locator('tr[data-code="MFA_REQUIRED"]').getByRole('button', { name: 'Run in preview' }).click();
  await expect(preview(page).getByTestId('studio-left')).toContainText('/mfa?state=');
  await expect(preview(page).getByTestId('studio-left')).toContainText('screen "mfa"');
});

test('a broken edit is reported with file, position, pointer and reason, and not saved', async ({ page }) => {
  await openStudio(page);
  await pickScreen(page, 'login');
  const original = await page.request
    .get('/dev/studio/api/catalogue')
    .then(async (r) => ((await r.json()) as { screens: Array<{ id: string; text: string }> }).screens.find((s) => s.id === 'login')!.text);
  const broken = original.replace('"ui:widget": "password"', '"ui:widget": "passwrd"');
  expect(broken).not.toBe(original);
  await page.getByRole('tab', { name: 'Advanced: screen file' }).click();
  await page.locator('.cm-content').first().fill(broken);
  const problems = page.getByTestId('studio-problems');
  await expect(problems).toContainText(
    /screens\/login\.json:\d+:\d+ at \/steps\/credentials\/uiSchema\/password\/ui:widget: unknown widget "passwrd".*did you mean "password"\?/,
    { timeout: 15_000 },
  );
  // The same problem inside the editor, at its position (the lint panel lists every diagnostic,
  // also those on lines scrolled out of view).
  await page.locator('.cm-content').first().focus();
  await page.keyboard.press('Control+Shift+KeyM');
  await expect(page.locator('.cm-panel-lint')).toContainText('unknown widget "passwrd"');

  await page.getByTestId('studio-save').click();
  await expect(page.getByTestId('studio-save-status')).toHaveText('Not saved: fix the problems below first.');
  const after = await page.request
    .get('/dev/studio/api/catalogue')
    .then(async (r) => ((await r.json()) as { screens: Array<{ id: string; text: string }> }).screens.find((s) => s.id === 'login')!.text);
  expect(after).toBe(original);

  // Invalid JSON: the preview waits, the problem names the line and column.
  await page.locator('.cm-content').first().fill(original.replace('"initialStep"', '"initialStep" "x",'));
  await expect(problems).toContainText(/screens\/login\.json:\d+:\d+: invalid JSON/, { timeout: 15_000 });
});

test('the editor completes property names from the meta-schema', async ({ page }) => {
  await openStudio(page);
  await pickScreen(page, 'login');
  await page.getByRole('tab', { name: 'Advanced: screen file' }).click();
  await page.locator('.cm-content').first().fill('{\n  \n}');
  await page.locator('.cm-line').nth(1).click();
  await page.keyboard.type('"init');
  await page.keyboard.press('Control+Space');
  await expect(page.locator('.cm-tooltip-autocomplete')).toContainText('initialStep');
});
