import { expect, test, type Page } from '@playwright/test';
import { MESSAGE_AUTO_HIDE_MS } from '../../src/platform/constants/limits';
import { expectAlert, keepRecoveryCodes, outbox, signIn, totpCode } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';

/** Registration (SPEC §2 /register, §8 Registration) through the outbox, in Chromium. */

const PASSWORD = 'Trial-Passw0rd';
/** The screen's form (the page frame has its own 'Language' switcher). */
const form = (page: Page) => page.locator('form.fd-form');

// The page's language and the Language field's default both follow the browser.
test.use({ locale: 'en-US' });

// These flows change demo accounts (activation, passwords, used links): start from the demo tenant
// and leave it as found for the specs that run after on the same server.
test.beforeAll(async ({ request }) => {
  expect((await request.post('/dev/reset')).ok()).toBe(true);
});
test.afterAll(async ({ request }) => {
  expect((await request.post('/dev/reset')).ok()).toBe(true);
});

async function fillDetails(page: Page, values: { company?: string; first?: string; last?: string; email?: string; phone?: string } = {}) {
  await page.getByLabel('Organization').fill(values.company ?? 'Acme Ltd');
  await page.getByLabel('First Name').fill(values.first ?? 'Ada');
  await page.getByLabel('Last Name').fill(values.last ?? 'Lovelace');
  if (values.email !== undefined) await page.getByLabel('Email', { exact: true }).fill(values.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Verify Password').fill(PASSWORD);
  await page.getByLabel('Cell Phone').fill(values.phone ?? '+1 415 555 0142');
}

async function profileAndRegister(page: Page) {
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Tell us about yourself' })).toBeVisible();
  await page.getByRole('group', { name: 'Business type' }).getByLabel('Managed service provider (MSP)').check();
  await page.getByLabel('Team size').selectOption({ label: '6-15' });
  await page.getByRole('group', { name: 'Products you are interested in' }).getByLabel('Patch management').check();
  await page.getByRole('button', { name: 'Register' }).click();
}

test.describe('/register in a German browser', () => {
  test.use({ locale: 'de-DE' });

  test('the Language field defaults to the browser language (the page itself is German too)', async ({ page }) => {
    await page.goto('/register');
    await expect(form(page).getByLabel('Organisation')).toBeVisible();
    await expect(form(page).getByLabel('Sprache').locator('option:checked')).toHaveText('Deutsch');
  });
});

test.describe('/register', () => {
  test('shows the labelled fields; the language defaults to the browser language; the links', async ({ page }) => {
    await page.goto('/register');
    await expect(page).toHaveTitle('Register | Front Door');
    for (const label of ['Organization', 'First Name', 'Last Name', 'Password', 'Verify Password', 'Cell Phone', 'Language']) {
      await expect(form(page).getByLabel(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByLabel('Email', { exact: true })).toBeEditable();
    await expect(page.getByLabel('Cell Phone')).toHaveAttribute('autocomplete', 'tel');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('maxlength', '72');
    // The chosen option shows the language's name and carries the language itself (what a post sends).
    await expect(form(page).getByLabel('Language').locator('option:checked')).toHaveText('English (US)');
    await expect(form(page).getByLabel('Language')).toHaveValue('en-us');
    // The 16 languages of SPEC §3, Arabic and Hebrew (rjsf adds an empty placeholder option).
    await expect(form(page).getByLabel('Language').locator('option:not([value=""])')).toHaveCount(18);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Missing activation email?' })).toHaveAttribute('href', '/requestActivation');
  });

  test('an empty submit moves focus to the first invalid field; a summary on top links to each', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByRole('button', { name: 'Continue' }).click();
    // Focus was in Last Name: it moves to the first field to fix, in the order the form shows them.
    await expect(page.getByLabel('Organization')).toBeFocused();
    const summary = page.getByRole('group', { name: 'Please correct the following:' });
    await expect(summary.getByRole('link')).toHaveText([
      'Organization: Required',
      'First Name: Required',
      'Email: Required',
      'Password: Required',
      'Verify Password: Passwords do not match',
      'Cell Phone: Required',
    ]);
    await summary.getByRole('link', { name: 'Cell Phone: Required' }).click();
    await expect(page.getByLabel('Cell Phone')).toBeFocused();
    // Fixed fields leave the summary as they are validated (on blur).
    await page.getByLabel('Cell Phone').fill('+1 415 555 0142');
    await page.getByLabel('Cell Phone').blur();
    await expect(summary.getByRole('link', { name: /^Cell Phone/ })).toHaveCount(0);
  });

  test('validates on the client with the shared messages', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Organization').fill('   ');
    await page.getByLabel('Email', { exact: true }).fill('nope');
    await page.getByLabel('Password', { exact: true }).fill('weakpass');
    await page.getByLabel('Verify Password').fill('different');
    await page.getByLabel('Cell Phone').fill('12 34');
    await page.getByRole('button', { name: 'Continue' }).click();
    // Beside each field (the summary on top repeats them as links).
    const fields = page.locator('.fd-fields');
    await expect(fields.getByText('Required')).toHaveCount(3);
    await expect(fields.getByText('Invalid email address')).toBeVisible();
    await expect(
      fields.getByText(
        'Password must be between (8) and (72) characters and meet 3 of the following criteria: lower case letter, upper case letter, special character, number.',
      ),
    ).toBeVisible();
    await expect(fields.getByText('Passwords do not match')).toBeVisible();
    await expect(fields.getByText('Invalid', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Cell Phone')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('heading', { name: 'Register' })).toBeVisible();
  });

  test('register -> activation email -> activate -> sign in -> MFA setup -> signed in', async ({ page, request }) => {
    await page.goto('/register');
    await fillDetails(page, { email: 'ada.e2e@acme.test' });
    await profileAndRegister(page);
    await expect(page.getByRole('status').filter({ hasText: 'Account successfully created. Please check your email to activate your account.' })).toBeVisible();
    const [mail] = await outbox(request, 'ada.e2e@acme.test');
    expect(mail?.link).toMatch(/\/activate\/division\//);
    // Not active before the link.
    await signIn(page, 'ada.e2e@acme.test', PASSWORD);
    await expectAlert(page, 'Your user account is not active. Please contact your system administrator.');
    // The link asks for the password chosen at registration, then the sign-in goes on.
    await page.goto(mail!.link!);
    await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Activate' }).click();
    // The new trial owner sets up the MFA the platform requires, as a first-time visitor would: the
    // preselected Authenticator App, Continue (there from the start), the two codes, signed in.
    await expect(page).toHaveURL(/\/mfa\/setup\?state=/);
    await page.getByRole('button', { name: 'Continue' }).click();
    const key = await page.getByLabel('Key', { exact: true }).inputValue();
    await page.getByLabel('First code').fill(await totpCode(key, -1));
    await page.getByLabel('Second code').fill(await totpCode(key, 0));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // A first factor was set up: its recovery codes are shown once, then the way on.
    await keepRecoveryCodes(page);
    await expect(page).toHaveURL(/\/app\/$/);
    await expect(page.getByText('Signed in as ada.e2e@acme.test')).toBeVisible();
    // The link is single use.
    await page.goto(mail!.link!);
    await expect(page.getByRole('status').filter({ hasText: 'Your account has already been successfully activated.' })).toBeVisible();
  });

  test('Back keeps the answers; a duplicate email is refused with its text', async ({ page }) => {
    await page.goto('/register');
    await fillDetails(page, { email: 'tech@demo.test' });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByLabel('Organization')).toHaveValue('Acme Ltd');
    await expect(page.getByLabel('Cell Phone')).toHaveValue('+1 415 555 0142');
    await profileAndRegister(page);
    await expectAlert(page, 'Email Address has already been registered.');
  });

  test('a field the server refuses on step 2 takes the visitor back to it on step 1, marked and focused, every answer kept', async ({ page }) => {
    await page.goto('/register');
    await fillDetails(page, { email: 'bad.org@acme.test', company: 'Acme <Ltd>' });
    await profileAndRegister(page);
    // Back on step 1: Organization marked with the server's reason, focused, the summary names it.
    await expect(page.getByRole('heading', { name: 'Register' })).toBeVisible();
    const illegal = 'Input cannot contain following characters: < > " \\ { } % ;';
    const organization = page.getByLabel('Organization');
    await expect(organization).toHaveAttribute('aria-invalid', 'true');
    await expect(organization).toBeFocused();
    await expect(page.locator('.fd-fields').getByText(illegal)).toBeVisible();
    await expect(page.getByRole('group', { name: 'Please correct the following:' }).getByRole('link')).toHaveText([`Organization: ${illegal}`]);
    // Every answer is still there.
    await expect(organization).toHaveValue('Acme <Ltd>');
    await expect(page.getByLabel('First Name')).toHaveValue('Ada');
    await expect(page.getByLabel('Last Name')).toHaveValue('Lovelace');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('bad.org@acme.test');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue(PASSWORD);
    await expect(page.getByLabel('Verify Password')).toHaveValue(PASSWORD);
    await expect(page.getByLabel('Cell Phone')).toHaveValue('+1 415 555 0142');
    // Fixed here, the next field the server refuses (a later one: focus goes there, not to the first field).
    await organization.fill('Acme Ltd');
    await page.getByLabel('Last Name').fill('Love;lace');
    await page.getByRole('button', { name: 'Continue' }).click();
    // The profile's answers were kept too.
    await expect(page.getByRole('group', { name: 'Business type' }).getByLabel('Managed service provider (MSP)')).toBeChecked();
    await expect(page.getByLabel('Team size').locator('option:checked')).toHaveText('6-15');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByLabel('Last Name')).toBeFocused();
    await expect(page.getByLabel('Last Name')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Account successfully created.' })).toBeVisible();
  });

  test('illegal characters name the list', async ({ page }) => {
    await page.goto('/register');
    await fillDetails(page, { email: 'bad.chars@acme.test', first: 'Ada <b>' });
    await profileAndRegister(page);
    await expectAlert(page, 'Input cannot contain following characters: < > " \\ { } % ;');
  });
});

test.describe('/register/:trialLinkCode', () => {
  test('DEMO-TRIAL prefills the invite, locks the email and registers', async ({ page, request }) => {
    await page.goto('/register/DEMO-TRIAL');
    await expect(page.getByLabel('Organization')).toHaveValue('Demo Co');
    await expect(page.getByLabel('First Name')).toHaveValue('Dana');
    await expect(page.getByLabel('Last Name')).toHaveValue('Lee');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('dana.lee@demo.test');
    await expect(page.getByLabel('Email', { exact: true })).not.toBeEditable();
    // And it looks locked: not like the fields to type in.
    const look = (label: string) =>
      page.getByLabel(label, { exact: true }).evaluate((el) => `${getComputedStyle(el).backgroundColor} ${getComputedStyle(el).borderStyle}`);
    expect(await look('Email')).not.toBe(await look('First Name'));
    await expect(form(page).getByLabel('Language').locator('option:checked')).toHaveText('English (UK)');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Verify Password').fill(PASSWORD);
    await page.getByLabel('Cell Phone').fill('+14155550143');
    await profileAndRegister(page);
    await expect(page.getByRole('status').filter({ hasText: 'Account successfully created.' })).toBeVisible();
    expect((await outbox(request, 'dana.lee@demo.test'))[0]?.link).toMatch(/\/activate\/division\//);
  });

  for (const [code, opening] of [
    ['DEMO-TRIAL-EXPIRED', 'The trial link has expired'],
    ['DEMO-TRIAL-USED', 'The trial link has been used already'],
    ['DEMO-TRIAL-REPLACED', 'The trial link has been replaced'],
  ] as const) {
    test(`${code}: a permanent message naming Sam Rivera`, async ({ page }) => {
      // The page's clock, so the wait past a passing message's life (MESSAGE_AUTO_HIDE_MS, 5 s, a
      // setTimeout in src/app/messages.tsx) is a jump that fires its timer, not 5 s of waiting.
      await page.clock.install();
      await page.goto(`/register/${code}`);
      const message = page.getByRole('alert').filter({ hasText: opening });
      await expect(message).toContainText('Sam Rivera');
      await expect(page.getByLabel('Organization')).toHaveCount(0);
      await page.clock.fastForward(MESSAGE_AUTO_HIDE_MS + 500);
      await expect(message).toBeVisible();
    });
  }
});

/**
 * The deployment's switch, SELF_REGISTRATION=off, on a server of its own (demo mode, a free port): the
 * page carries its /ws/app-config answer (server/spa/html.ts) and is the build's prerendering for it.
 */
test.describe('self-registration disabled', () => {
  let server: OwnServer | undefined;
  let base = '';
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    server = await startOwnServer({ SELF_REGISTRATION: 'off' });
    base = server.address;
  });
  test.afterAll(() => {
    server?.stop();
    server = undefined;
  });

  test('/register is refused and the link is hidden; invite links still work', async ({ page }) => {
    // The page says so itself: no call to /ws/app-config is made to learn it.
    await page.goto(`${base}/register`);
    expect(await page.evaluate(() => (JSON.parse(document.getElementById('root')?.dataset.page ?? '{}') as { config?: unknown }).config)).toMatchObject({
      selfRegistrationEnabled: false,
    });
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Do not have an account?' })).toHaveCount(0);
    // An invite link is still looked up.
    await page.goto(`${base}/register/DEMO-TRIAL-EXPIRED`);
    await expect(page.getByRole('alert').filter({ hasText: 'The trial link has expired' })).toBeVisible();
    await expect(page).toHaveURL(/\/register\/DEMO-TRIAL-EXPIRED$/);
  });

  test('control: with the switch on (the shared server), /register opens and /login links to it', async ({ page }) => {
    await page.goto('/register');
    await expect(page.getByLabel('Organization')).toBeVisible();
    await page.goto('/login');
    await expect(page.getByRole('link', { name: 'Do not have an account?' })).toBeVisible();
  });
});
