import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { APPROVER, expectStudioAxeClean, rebuilt, restoreCatalogueAfterAll, signInToStudio, studioApi } from './studio-helpers';

/**
 * The studio for people without code (/dev/studio): every recipe done with its form — the screen
 * file and the locale files change as docs/editing-screens.md shows, the preview shows the result —
 * and a field added with an English label (its name made from the label), approved and published,
 * is live in the running app with the other languages pending. What the tests publish is rolled
 * back (and the running app rebuilt) afterwards.
 */
const preview = (page: Page) => page.getByTestId('studio-preview');
const problems = (page: Page) => page.getByTestId('studio-problems');

type Json = Record<string, any>;
/** The last edit each page sent to the check: the screen file and changed locale files as the studio holds them. */
const edits = new WeakMap<Page, { screen: string; locales: Record<string, string> }>();

async function openStudio(page: Page, screen = 'login'): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    if (request.url().endsWith('/dev/studio/api/preview')) edits.set(page, request.postDataJSON() as { screen: string; locales: Record<string, string> });
  });
  await signInToStudio(page);
  await expect(page.getByTestId('studio-screen')).toBeVisible();
  await expect(problems(page)).toContainText('No problems', { timeout: 20_000 });
  if (screen !== 'login') {
    await page.getByTestId('studio-screen').selectOption(screen);
    await expect(preview(page).locator(`[data-screen="${screen}"]`)).toBeVisible({ timeout: 20_000 });
  }
  return errors;
}

async function recipe(page: Page, name: string) {
  await page.getByLabel('What do you want to change?').selectOption({ label: name });
}

/** Picks the option of a recipe's select whose text starts with the prefix (texts come from the locale files). */
async function pick(page: Page, label: string, prefix: string) {
  const select = page.getByTestId('studio-recipes').getByLabel(label, { exact: true });
  const options = await select.locator('option').evaluateAll((o) => o.map((x) => x.textContent ?? ''));
  const option = options.find((text) => text.startsWith(prefix));
  expect(option, `${label}: an option starting with ${prefix}`).toBeDefined();
  await select.selectOption({ label: option ?? '' });
}

/** The screen file as the studio last sent it to the check. */
const screenJson = (page: Page): Json => JSON.parse(edits.get(page)?.screen ?? '{}') as Json;
/** A changed locale file as the studio last sent it to the check. */
const localeJson = (page: Page, file: string): Json => JSON.parse(edits.get(page)?.locales[file] ?? '{}') as Json;

test.describe('recipes in forms', () => {
  test('add a field: schema property, label key, ui:order, required; the preview shows it', async ({ page }) => {
    await openStudio(page);
    await recipe(page, 'Add a field');
    await page.getByLabel('Label (English)').fill('Company code');
    // The field's name is made from the label; a person may change it under Advanced.
    await page.getByText('Advanced', { exact: true }).click();
    await expect(page.getByLabel('Field name')).toHaveValue('companyCode');
    await page.getByLabel('Field name').fill('company code');
    await page.getByRole('button', { name: 'Add field' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'must start with a small letter' })).toBeVisible();
    await page.getByLabel('Field name').fill('companyCode');
    await page.getByLabel('Place').selectOption({ label: 'After Email (email)' });
    await page.getByLabel('Required').check();
    await page.getByRole('button', { name: 'Add field' }).click();
    await expect(page.getByTestId('studio-recipe-status')).toContainText('Added "Company code". The 17 other languages are pending');
    await expect(preview(page).getByLabel('Company code')).toBeVisible({ timeout: 15_000 });
    // In the form's order: after Email, before Password.
    const labels = await preview(page).locator('form label').allInnerTexts();
    expect(labels.findIndex((l) => l.startsWith('Company code'))).toBe(labels.findIndex((l) => l.startsWith('Email')) + 1);
    await expect.poll(() => screenJson(page).steps?.credentials?.schema?.properties?.companyCode).toEqual({ type: 'string', maxLength: 200 });
    const step = screenJson(page).steps.credentials;
    expect(step.schema.required).toContain('companyCode');
    expect(step.uiSchema['ui:order']).toEqual(['email', 'companyCode', 'password', 'staySignedIn', 'passkey']);
    expect(step.uiSchema.companyCode).toEqual({ 'ui:title': 'login.fields.companyCode' });
    expect(localeJson(page, 'en-us/login.json').fields.companyCode).toBe('Company code');
    await expect(page.getByTestId('studio-pending')).toContainText('login.fields.companyCode');
    await expect(page.getByTestId('studio-pending')).toContainText('missing in 17 languages');
    await expect(problems(page)).toContainText('No problems');
  });

  test('reorder fields with Move up / Move down', async ({ page }) => {
    await openStudio(page);
    await recipe(page, 'Reorder fields');
    await page.getByRole('button', { name: 'Move Password (password) up' }).click();
    await expect(page.getByTestId('studio-recipe-status')).toContainText('Moved Password');
    await expect(async () => {
      const labels = (await preview(page).locator('form label').allInnerTexts()).map((l) => l.trim());
      expect(labels.indexOf('Password')).toBeLessThan(labels.indexOf('Email'));
    }).toPass({ timeout: 15_000 });
    expect(screenJson(page).steps.credentials.uiSchema['ui:order']).toEqual(['password', 'email', 'staySignedIn', 'passkey']);
    await expect(page.getByRole('button', { name: 'Move Password (password) up' })).toBeDisabled();
  });

  test('remove a field: property, required, ui:order, UI schema and the body member that sent it', async ({ page }) => {
    await openStudio(page);
    await recipe(page, 'Remove a field');
    await page.getByLabel('Field', { exact: true }).selectOption({ label: 'Keep me signed in (staySignedIn)' });
    await page.getByRole('button', { name: 'Remove field' }).click();
    await expect(page.getByTestId('studio-recipe-status')).toContainText('Removed Keep me signed in');
    await expect(preview(page).getByLabel('Keep me signed in')).toHaveCount(0, { timeout: 15_000 });
    await expect(preview(page).getByLabel('Email', { exact: true })).toBeVisible();
    const step = screenJson(page).steps.credentials;
    expect(step.schema.properties.staySignedIn).toBeUndefined();
    expect(step.uiSchema['ui:order']).toEqual(['email', 'password', 'passkey']);
    expect(step.uiSchema.staySignedIn).toBeUndefined();
    expect(JSON.stringify(step.submit)).not.toContain('/staySignedIn');
  });

  test('relabel a field in English, and in German', async ({ page }) => {
    await openStudio(page);
    await recipe(page, 'Relabel a field, button or title');
    await page.getByLabel('Text', { exact: true }).selectOption({ label: 'Field: Email (email)' });
    await page.getByLabel('New text').fill('Work email');
    await page.getByRole('button', { name: 'Apply text' }).click();
    await expect(preview(page).getByLabel('Work email')).toBeVisible({ timeout: 15_000 });
    await page.getByTestId('studio-recipes').getByLabel('Language', { exact: true }).selectOption('de-de');
    await page.getByLabel('New text').fill('Geschäftliche E-Mail');
    await page.getByRole('button', { name: 'Apply text' }).click();
    await page.getByTestId('studio-language').selectOption('de-de');
    await expect(preview(page).getByLabel('Geschäftliche E-Mail')).toBeVisible({ timeout: 15_000 });
    expect(localeJson(page, 'de-de/login.json').fields.email).toBe('Geschäftliche E-Mail');
    expect(localeJson(page, 'en-us/login.json').fields.email).toBe('Work email');
  });

  test('change a message: the text a result code shows', async ({ page }) => {
    await openStudio(page);
    await recipe(page, 'Change a message');
    // The password sign-in's, not the passkey sign-in's (login's first submit since passkeys).
    await pick(page, 'Message', 'AUTHENTICATION_FAILURE: Invalid username/password');
    await page.getByLabel('New text').fill('Wrong email or password.');
    await page.getByRole('button', { name: 'Apply text' }).click();
    const sim = page.getByTestId('studio-simulator');
    await page.getByTestId('studio-call').selectOption({ label: 'Submit → login' });
    await expect(sim.locator('tr[data-code="AUTHENTICATION_FAILURE"]')).toContainText('Wrong email or password.', { timeout: 15_000 });
  });

  test('route a result code to another screen', async ({ page }) => {
    await openStudio(page);
    await recipe(page, 'Route a result code');
    await page.getByTestId('studio-recipes').getByLabel('Call', { exact: true }).selectOption({ label: 'Submit → login' });
    await page.getByTestId('studio-recipes').getByLabel('Result code', { exact: true }).selectOption('ACCOUNT_SUSPENDED');
    await page.getByLabel('Leads to').selectOption({ label: '/requestActivation (screen requestActivation)' });
    await page.getByRole('button', { name: 'Route it' }).click();
    await expect(page.getByTestId('studio-recipe-status')).toContainText('ACCOUNT_SUSPENDED now leads to /requestActivation');
    await page.getByTestId('studio-call').selectOption({ label: 'Submit → login' });
    await expect(page.getByTestId('studio-simulator').locator('tr[data-code="ACCOUNT_SUSPENDED"] [data-testid="studio-leads-to"]')).toContainText(
      '/requestActivation (screen requestActivation)',
      { timeout: 15_000 },
    );
    const submits = screenJson(page).steps.credentials.submit as Array<{ operation?: string; outcomes?: Record<string, unknown> }>;
    const login = submits.find((s) => s.operation === 'login');
    expect(login?.outcomes?.ACCOUNT_SUSPENDED).toMatchObject({ navigate: { to: '/requestActivation' } });
    await expect(problems(page)).toContainText('No problems');
  });

  test('swap a widget: a radio row becomes a drop-down', async ({ page }) => {
    await openStudio(page, 'resetPassword');
    await page.getByTestId('studio-step').selectOption('request');
    await recipe(page, 'Swap a widget');
    await pick(page, 'Field', 'Verify Identity By');
    await page.getByLabel('Widget', { exact: true }).selectOption('select');
    await page.getByRole('button', { name: 'Use this widget' }).click();
    await expect(preview(page).getByRole('combobox')).toBeVisible({ timeout: 15_000 });
    const steps = screenJson(page).steps as Record<string, { uiSchema?: Record<string, Record<string, unknown>> }>;
    expect(Object.values(steps).some((s) => s.uiSchema?.verifyBy?.['ui:widget'] === 'select')).toBe(true);
  });

  test('one text in all 18 languages: edit a cell, empty cells are pending', async ({ page }) => {
    await openStudio(page);
    await page.getByRole('tab', { name: 'Texts in all languages' }).click();
    await page.getByLabel('Text key').fill('login.fields.password');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    const table = page.getByTestId('studio-text-table');
    await expect(table.locator('tr[data-lang]')).toHaveCount(18);
    await table.getByLabel('fr-fr').fill('Mot de passe secret');
    await table.getByLabel('it-it').fill('');
    await expect(table.locator('tr[data-lang="it-it"]')).toContainText('pending');
    await expect(page.getByTestId('studio-pending')).toContainText('login.fields.password', { timeout: 15_000 });
    await expect(page.getByTestId('studio-pending')).toContainText('missing in 1 language (it-it)');
    await page.getByTestId('studio-language').selectOption('fr-fr');
    await expect(preview(page).getByLabel('Mot de passe secret')).toBeVisible({ timeout: 15_000 });
    // Pending does not block: the status is clean.
    await expect(problems(page)).toContainText('No problems');
  });
});

test.describe('robust editing', () => {
  // These tests never save; if one ever did, the next specs still find the catalogue as it was.
  const login = readFileSync('screens/login.json', 'utf8');
  test.afterAll(() => {
    if (readFileSync('screens/login.json', 'utf8') !== login) writeFileSync('screens/login.json', login);
  });
  test('one syntax error is one problem; the steps, preview and forms stay', async ({ page }) => {
    await openStudio(page);
    await page.getByRole('tab', { name: 'Advanced: screen file' }).click();
    const original = await page.request
      .get('/dev/studio/api/catalogue')
      .then(async (r) => ((await r.json()) as { screens: Array<{ id: string; text: string }> }).screens.find((s) => s.id === 'login')!.text);
    // A missing comma.
    await page.locator('.cm-content').first().fill(original.replace('"initialStep": "credentials",', '"initialStep": "credentials"'));
    await expect(problems(page)).toContainText('1 problem', { timeout: 15_000 });
    await expect(problems(page).locator('li')).toHaveCount(1);
    await expect(problems(page)).toContainText(/screens\/login\.json:\d+:\d+: invalid JSON: a comma/);
    await expect(page.getByTestId('studio-step').locator('option')).not.toHaveCount(0);
    await expect(page.getByText('The screen file cannot be loaded as it is')).toBeVisible();
    await expect(preview(page).getByLabel('Email', { exact: true })).toBeVisible();
    // The editor scrolls inside its box: its bottom is above the Save button.
    const editor = await page.getByTestId('studio-editor').boundingBox();
    const save = await page.getByTestId('studio-save').boundingBox();
    expect(editor && save && editor.y + editor.height <= save.y).toBe(true);
  });

  test('simulate a result code without filling the form: no validation errors, the simulated effect', async ({ page }) => {
    await openStudio(page);
    await page.getByTestId('studio-call').selectOption({ label: 'Submit → login' });
    const sim = page.getByTestId('studio-simulator');
    await sim.locator('tr[data-code="AUTHENTICATION_FAILURE"]').getByRole('button', { name: 'Run in preview' }).click();
    await expect(preview(page).getByRole('alert').filter({ hasText: 'Invalid username/password' })).toBeVisible();
    await expect(preview(page).locator('.fd-field-error, [id$="__error"], .error-detail').filter({ hasText: /\S/ })).toHaveCount(0);
    await expect(preview(page).getByLabel('Email', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
    await sim.locator('tr[data-code="MFA_REQUIRED"]').getByRole('button', { name: 'Run in preview' }).click();
    await expect(preview(page).getByTestId('studio-left')).toContainText('screen "mfa"');
  });

  test('a render error is a problem with file and pointer, never an engine dump or "No problems"', async ({ page }) => {
    const errors = await openStudio(page);
    await page.getByRole('tab', { name: 'Advanced: screen file' }).click();
    const original = await page.request
      .get('/dev/studio/api/catalogue')
      .then(async (r) => ((await r.json()) as { screens: Array<{ id: string; text: string }> }).screens.find((s) => s.id === 'login')!.text);
    const edited = original.replace('"ui:order": ["email", "password", "staySignedIn", "passkey"]', '"ui:order": ["email", "staySignedIn", "passkey"]');
    expect(edited).not.toBe(original);
    await page.locator('.cm-content').first().fill(edited);
    await expect(problems(page)).toContainText(
      /screens\/login\.json:\d+:\d+ at \/steps\/credentials\/uiSchema\/ui:order: "ui:order" does not list the field "password"/,
      { timeout: 15_000 },
    );
    await expect(problems(page)).not.toContainText('No problems');
    await expect(page.getByRole('alert').filter({ hasText: 'cannot show step "credentials"' })).toBeVisible();
    await expect(preview(page)).toHaveCount(0);
    await expect(page.getByText('uiSchema order list')).toHaveCount(0);
    await page.getByTestId('studio-save').click();
    await expect(page.getByTestId('studio-save-status')).toHaveText('Not saved: fix the problems below first.');
    expect(readFileSync('screens/login.json', 'utf8')).toBe(original);
    expect(errors).toEqual([]);
  });

  for (const width of [1280, 375]) {
    test(`at ${width} px nothing covers the buttons`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await openStudio(page);
      for (const tab of ['Change the screen', 'Texts in all languages', 'Advanced: screen file', 'Advanced: text files']) {
        await page.getByRole('tab', { name: tab }).click();
        for (const name of ['Save draft', 'Request review', 'Discard edits']) {
          const button = page.getByRole('button', { name });
          await button.scrollIntoViewIfNeeded();
          const box = await button.boundingBox();
          expect(box).not.toBeNull();
          // The element at the button's centre is the button: nothing lies over it.
          const top = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent ?? '', {
            x: box!.x + box!.width / 2,
            y: box!.y + box!.height / 2,
          });
          expect(top, `${tab}: ${name}`).toBe(name);
          expect(box!.x + box!.width, `${tab}: ${name} inside the page`).toBeLessThanOrEqual(width);
        }
      }
      // No horizontal scrolling of the page itself.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });

    test(`at ${width} px the studio's own controls pass axe (WCAG 2.2 AA) on every tab`, async ({ page }) => {
      // Four full audits of a large page.
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 800 });
      await openStudio(page);
      for (const tab of ['Change the screen', 'Texts in all languages', 'Advanced: screen file', 'Advanced: text files']) {
        await page.getByRole('tab', { name: tab }).click();
        await expectStudioAxeClean(page, tab);
      }
    });
  }
});

test.describe('live', () => {
  restoreCatalogueAfterAll();

  test('a field added with an English label, approved and published, is live in the running app; the other languages are pending', async ({
    page,
    browser,
    playwright,
  }) => {
    test.setTimeout(300_000);
    await openStudio(page);
    await recipe(page, 'Add a field');
    await page.getByLabel('Label (English)').fill('Company code');
    await page.getByRole('button', { name: 'Add field' }).click();
    await expect(preview(page).getByLabel('Company code')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('studio-pending')).toContainText('missing in 17 languages');

    await page.getByLabel('Note for the reviewer').fill('Ask for the company code');
    await page.getByTestId('studio-save').click();
    await expect(page.getByTestId('studio-save-status')).toContainText(/Draft \d+ saved/);
    await expect(page.getByTestId('studio-save-status')).toContainText('1 text is pending translation');
    // A draft changes no file.
    expect(JSON.parse(readFileSync('locales/en-us/login.json', 'utf8')).fields.companyCode).toBeUndefined();
    await page.getByRole('button', { name: 'Request review' }).click();
    const change = page.getByTestId('studio-change');
    await expect(change).toHaveAttribute('data-state', 'review');

    // The approver (studio-review.spec.ts does this part in the browser).
    const approver = await studioApi(playwright, APPROVER);
    const { changes } = (await (await approver.get('/dev/studio/api/changes')).json()) as { changes: Array<{ id: number; note: string; revision: number }> };
    const mine = changes.find((c) => c.note === 'Ask for the company code');
    expect(mine).toBeDefined();
    // Each decision names the revision read.
    const decided = { data: { revision: mine?.revision } };
    expect((await approver.post(`/dev/studio/api/changes/${mine?.id}/approve`, decided)).ok()).toBe(true);
    expect((await approver.post(`/dev/studio/api/changes/${mine?.id}/publish`, decided)).ok()).toBe(true);
    await rebuilt(approver);
    expect(JSON.parse(readFileSync('locales/en-us/login.json', 'utf8')).fields.companyCode).toBe('Company code');
    expect(JSON.parse(readFileSync('locales/de-de/login.json', 'utf8')).fields.companyCode).toBeUndefined();

    // The real app, no restart: the field is there; a German visitor sees the English label (pending).
    const app = await page.context().newPage();
    await app.goto('/login');
    await expect(app.getByLabel('Company code')).toBeVisible();
    const german = await browser.newContext({ locale: 'de-DE' });
    const de = await german.newPage();
    await de.goto('/login');
    await expect(de.locator('html')).toHaveAttribute('lang', /^de/);
    await expect(de.getByLabel('Company code')).toBeVisible();
    await german.close();

    // Still listed as pending in the studio, now that it is live.
    await page.reload();
    await expect(page.getByTestId('studio-pending')).toContainText('login.fields.companyCode', { timeout: 20_000 });
  });
});
