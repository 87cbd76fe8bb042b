// @vitest-environment jsdom
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement as h } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { TextsProvider } from '../../src/lib/i18n';
import { MemoryRouter, Route, Routes, useLocation } from '../../src/app/router';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { checkProject, formatProblem } from '../../catalogue/check/check';
import { AppEngineHost, AppScreen } from '../../src/app/engine-host';
import { expandScreen } from '../../catalogue/check/lists';
import { ValidatorFactoryContext, type ValidatorFactory } from '../../src/engine/form/validator-factory';
import type { ScreenFile } from '../../src/engine/types';
import { MessageProvider } from '../../src/app/messages';
import { FALLBACK_SITE, SiteContext } from '../../src/app/site';
import { addValidators } from '@frontdoor/validators';
import { copyCatalogue, edit, repo, type Json } from './catalogue-copy';

/**
 * Every recipe of docs/editing-screens.md, applied as the JSON edit the doc shows to a temporary
 * copy of the catalogue: the copy passes the catalogue check (the same one the build runs), and the
 * edited screen, rendered by the real engine in jsdom, shows what the recipe promises.
 *
 * The screen is rendered with validators compiled at run time (ajv + the frontdoor validators
 * plugin, what the build precompiles): the edited schema exists only in the temporary copy.
 */
const doc = readFileSync(join(repo, 'docs/editing-screens.md'), 'utf8');
/** The same edit in every language (a recipe must leave no locale behind). */
function editLocales(root: string, file: string, change: (d: Json, lang: string) => void): void {
  for (const lang of readdirSync(join(root, 'locales'))) edit(root, `locales/${lang}/${file}`, (d) => change(d, lang));
}

const runtimeValidator: ValidatorFactory = (() => {
  const validator = customizeValidator({ ajvFormatOptions: false, extenderFn: (ajv) => addValidators(ajv) });
  return () => validator;
})();

let answer: Record<string, unknown> = { resultCode: 'AUTHENTICATION_FAILURE' };
const calls: string[] = [];
function stubFetch() {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      calls.push(String(input));
      const body = String(input).includes('authentication-state') ? { authState: 'NONE' } : answer;
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

function Elsewhere() {
  const location = useLocation();
  return h('p', { 'data-testid': 'elsewhere' }, location.pathname);
}

/** Checks the copy (no problems allowed) and renders one of its screens with the engine. */
async function checkAndRender(root: string, id: string, options: { branded?: boolean; path?: string } = {}) {
  const { project, problems } = checkProject({ root });
  expect(problems.map(formatProblem)).toEqual([]);
  const entry = project.screens.find((s) => s.screen.id === id);
  if (!entry) throw new Error(`no screen ${id}`);
  const resolved: ScreenFile = expandScreen(entry.screen, entry.schemas, project.lists);
  const i18n = i18next.createInstance();
  await i18n.init({
    resources: Object.fromEntries(Object.entries(project.locales).map(([lang, r]) => [lang, { translation: r }])),
    lng: 'en-us',
    lowerCaseLng: true,
    keySeparator: '.',
    nsSeparator: false,
    interpolation: { escapeValue: false },
  });
  const site = { ...FALLBACK_SITE, production: false, selfRegistrationEnabled: true, branded: options.branded === true };
  stubFetch();
  const path = options.path ?? resolved.routes?.[0]?.path ?? '/';
  // createElement rather than JSX: the brief names this file recipes.test.ts.
  const routes = (resolved.routes ?? []).map((r) =>
    h(Route, { key: r.path, path: r.path, element: h(AppScreen, { module: { screen: resolved, outcomes: project.outcomes, validators: {} }, route: r }) }),
  );
  render(
    h(
      TextsProvider,
      { value: { language: 'en-us', resolvedLanguage: 'en-us', t: (key: string, values?: Record<string, unknown>) => i18n.t(key, values ?? {}) } },
      h(
        SiteContext.Provider,
        { value: site },
        h(
          ValidatorFactoryContext.Provider,
          { value: runtimeValidator },
          h(
            MessageProvider,
            null,
            h(
              MemoryRouter,
              { initialEntries: [path] },
              h(AppEngineHost, null, h(Routes, null, ...routes, h(Route, { key: '*', path: '*', element: h(Elsewhere) }))),
            ),
          ),
        ),
      ),
    ),
  );
  return { project, screen: resolved };
}

const LOGIN = 'screens/login.json';
const credentials = (d: Json) => d.steps.credentials;
const loginOutcomes = (d: Json) => d.steps.credentials.submit[2].outcomes;

async function signIn(email = 'someone@example.com', password = 'Secret-123') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  answer = { resultCode: 'AUTHENTICATION_FAILURE' };
});

/** Each recipe names its heading in docs/editing-screens.md, so the doc and the test stay one. */
// Each recipe copies the catalogue, runs the full check and renders: seconds on a busy machine.
const recipe = (title: string, body: () => Promise<void>) =>
  it(title, async () => {
    expect(doc, `docs/editing-screens.md has no recipe "${title}"`).toContain(`### ${title}`);
    await body();
  });

describe('docs/editing-screens.md recipes', { timeout: 30_000 }, () => {
  recipe('1. Add a field', async () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => {
      credentials(d).schema.properties.companyCode = { type: 'string', maxLength: 20 };
      credentials(d).uiSchema.companyCode = { 'ui:title': 'login.fields.companyCode' };
      credentials(d).uiSchema['ui:order'].push('companyCode');
    });
    editLocales(root, 'login.json', (d) => (d.fields.companyCode = 'Company code'));
    await checkAndRender(root, 'login');
    expect(screen.getByLabelText('Company code')).toBeTruthy();
  });

  recipe('2. Reorder fields', async () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => (credentials(d).uiSchema['ui:order'] = ['password', 'email', 'staySignedIn', 'passkey']));
    await checkAndRender(root, 'login');
    const inputs = [screen.getByLabelText('Password'), screen.getByLabelText('Email')];
    expect(inputs[0]!.compareDocumentPosition(inputs[1]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  recipe('3. Change a label in all languages', async () => {
    const root = copyCatalogue();
    editLocales(root, 'login.json', (d, lang) => (d.fields.email = lang === 'en-us' ? 'Work email' : `Work email (${lang})`));
    await checkAndRender(root, 'login');
    expect(screen.getByLabelText('Work email')).toBeTruthy();
  });

  recipe('4. Make a field optional', async () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => (credentials(d).schema.required = ['email']));
    await checkAndRender(root, 'login');
    await signIn('someone@example.com', '');
    await waitFor(() => expect(calls).toContain('/ws/account/login'));
    expect(screen.queryByText('Password field can not be empty')).toBeNull();
  });

  recipe('5. Add a validator keyword to a field', async () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => (credentials(d).schema.properties.password.minLength = 12));
    await checkAndRender(root, 'login');
    await signIn('someone@example.com', 'short');
    expect(await screen.findByText('Field must contain at least 12 characters.')).toBeTruthy();
    expect(calls).not.toContain('/ws/account/login');
  });

  recipe('6. Add a step', async () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => {
      d.steps.locked = {
        title: 'login.locked.title',
        blocks: { before: [{ type: 'text', text: 'login.locked.text' }], after: [{ type: 'link', text: 'login.forgotPassword', to: '/resetPassword' }] },
      };
      loginOutcomes(d).ACCOUNT_SUSPENDED = { step: 'locked' };
    });
    editLocales(root, 'login.json', (d) => (d.locked = { title: 'Account locked', text: 'Ask your administrator to unlock it.' }));
    answer = { resultCode: 'ACCOUNT_SUSPENDED' };
    await checkAndRender(root, 'login');
    await signIn();
    expect(await screen.findByRole('heading', { name: 'Account locked' })).toBeTruthy();
    expect(screen.getByText('Ask your administrator to unlock it.')).toBeTruthy();
  });

  recipe('7. Route a result code to another screen', async () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => (loginOutcomes(d).ACCOUNT_NOT_ACTIVATED = { navigate: { to: '/requestActivation' } }));
    answer = { resultCode: 'ACCOUNT_NOT_ACTIVATED' };
    await checkAndRender(root, 'login');
    await signIn();
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('/requestActivation');
  });

  recipe('8. Change a message', async () => {
    const root = copyCatalogue();
    editLocales(root, 'login.json', (d) => (d.errors.invalidCredentials = 'Wrong email or password.'));
    await checkAndRender(root, 'login');
    await signIn();
    expect((await screen.findByText('Wrong email or password.')).closest('[role="alert"]')).not.toBeNull();
  });

  recipe('9. Swap a widget', async () => {
    const root = copyCatalogue();
    edit(root, 'screens/resetPassword.json', (d) => (d.steps.request.uiSchema.verifyBy['ui:widget'] = 'select'));
    await checkAndRender(root, 'resetPassword', { path: '/resetPassword' });
    const field = await screen.findByLabelText('Verify Identity By');
    expect(field.tagName).toBe('SELECT');
    expect([...(field as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(expect.arrayContaining(['Email', 'Text']));
  });

  recipe('10. Add a screen with a new route', async () => {
    const root = copyCatalogue();
    writeFileSync(
      join(root, 'screens/systemStatus.json'),
      JSON.stringify(
        {
          $schema: '../schemas/screen.schema.json',
          id: 'systemStatus',
          title: 'systemStatus.title',
          routes: [{ path: '/status' }],
          initialStep: 'info',
          steps: {
            info: {
              title: 'systemStatus.title',
              blocks: { before: [{ type: 'text', text: 'systemStatus.allGood' }], after: [{ type: 'link', text: 'systemStatus.back', to: '/login' }] },
            },
          },
        },
        null,
        2,
      ),
    );
    for (const lang of readdirSync(join(root, 'locales'))) {
      writeFileSync(
        join(root, 'locales', lang, 'systemStatus.json'),
        JSON.stringify({ title: 'System status', allGood: 'All systems are running.', back: 'Back to sign in' }, null, 2),
      );
    }
    edit(root, LOGIN, (d) => credentials(d).blocks.after.push({ type: 'link', text: 'systemStatus.title', to: '/status' }));
    const { project } = await checkAndRender(root, 'systemStatus');
    expect(project.screens.map((s) => s.screen.id)).toContain('systemStatus');
    expect(screen.getByRole('heading', { name: 'System status' })).toBeTruthy();
    expect(screen.getByText('All systems are running.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
  });

  recipe('11. Add help text', async () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => (credentials(d).uiSchema.email['ui:help'] = 'login.help.email'));
    editLocales(root, 'login.json', (d) => (d.help = { email: 'Use the address your administrator invited.' }));
    await checkAndRender(root, 'login');
    expect(screen.getByText('Use the address your administrator invited.')).toBeTruthy();
  });

  recipe('12. Hide a field per brand', async () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => (credentials(d).uiSchema.staySignedIn['ui:hiddenWhen'] = '$branded'));
    await checkAndRender(root, 'login');
    expect(screen.getByLabelText('Keep me signed in')).toBeTruthy();
    cleanup();
    await checkAndRender(root, 'login', { branded: true });
    expect(screen.queryByLabelText('Keep me signed in')).toBeNull();
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });

  it('a recipe done wrong fails the check, with a suggestion', () => {
    const root = copyCatalogue();
    edit(root, LOGIN, (d) => (credentials(d).uiSchema.email['ui:help'] = 'login.help.emial'));
    editLocales(root, 'login.json', (d) => (d.help = { email: 'x' }));
    const problems = checkProject({ root }).problems;
    // One problem for the key (not one per language), with position, pointer and suggestion.
    const others = readdirSync(join(root, 'locales')).length - 1;
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^screens/login\\.json:\\d+:\\d+ at /steps/credentials/uiSchema/email/ui:help: i18n key "login\\.help\\.emial" is missing in locales/en-us${others > 0 ? ` and the ${others} other locales` : ''}; did you mean "login\\.help\\.email"\\?$`,
        ),
      ),
    ]);
    expect(problems[0]).toMatchObject({ file: LOGIN, pointer: '/steps/credentials/uiSchema/email/ui:help', suggestion: 'login.help.email' });
  });
});
