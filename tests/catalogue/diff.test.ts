import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffCatalogue, type DiffItem } from '../../catalogue/diff/diff';

/**
 * The semantic diff on the real catalogue: each kind of edit a product manager makes is named in
 * people's terms (field added, removed, reordered, made required, widget swapped, relabelled per
 * language, result code routed elsewhere, message changed, text changed per language), and any
 * other difference is still listed by its JSON pointer.
 */
const repo = resolve(__dirname, '../..');
const read = (path: string) => readFileSync(join(repo, path), 'utf8');
const screens = readdirSync(join(repo, 'screens'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));
type Json = Record<string, any>;

/** The diff of the real catalogue against itself with some files edited. */
function diffWith(edits: Record<string, (value: Json) => void>): DiffItem[] {
  const after: Record<string, string> = {};
  for (const [path, edit] of Object.entries(edits)) {
    const value = JSON.parse(read(path)) as Json;
    edit(value);
    after[path] = JSON.stringify(value, null, 2);
  }
  return diffCatalogue({
    paths: Object.keys(edits),
    before: (path) => read(path),
    after: (path) => after[path] ?? read(path),
    screens,
    defaultLanguage: 'en-us',
  });
}

const credentials = (login: Json) => login.steps.credentials as Json;

describe('the semantic diff of a screen change', () => {
  it('names a field added (with its English label), and nothing else', () => {
    const diff = diffWith({
      'screens/login.json': (login) => {
        const step = credentials(login);
        step.schema.properties.companyCode = { type: 'string' };
        step.schema.required.push('companyCode');
        step.uiSchema['ui:order'].splice(1, 0, 'companyCode');
        step.uiSchema.companyCode = { 'ui:title': 'login.fields.companyCode' };
      },
      'locales/en-us/login.json': (texts) => {
        texts.fields.companyCode = 'Company code';
      },
    });
    expect(diff).toEqual([
      { kind: 'field-added', screen: 'login', step: 'credentials', field: 'companyCode', label: 'Company code', required: true },
      { kind: 'text-added', lang: 'en-us', key: 'login.fields.companyCode', after: 'Company code', uses: [{ screen: 'login', step: 'credentials' }] },
    ]);
  });

  it('names a field removed, fields reordered, made optional and given another widget', () => {
    const diff = diffWith({
      'screens/login.json': (login) => {
        const step = credentials(login);
        delete step.schema.properties.staySignedIn;
        delete step.uiSchema.staySignedIn;
        step.uiSchema['ui:order'] = ['password', 'email', 'passkey'];
        step.schema.required = ['email'];
        step.uiSchema.password['ui:widget'] = 'text';
      },
    });
    expect(diff).toEqual([
      { kind: 'field-removed', screen: 'login', step: 'credentials', field: 'staySignedIn', label: 'Keep me signed in' },
      { kind: 'fields-reordered', screen: 'login', step: 'credentials', before: ['email', 'password', 'passkey'], after: ['password', 'email', 'passkey'] },
      { kind: 'field-required', screen: 'login', step: 'credentials', field: 'password', label: 'Password', required: false },
      { kind: 'widget-swapped', screen: 'login', step: 'credentials', field: 'password', label: 'Password', before: 'password', after: 'text' },
    ]);
  });

  it('names a result code routed elsewhere and a message changed, with the call they answer', () => {
    const diff = diffWith({
      'screens/login.json': (login) => {
        const submit = (credentials(login).submit as Json[]).find((call) => call.operation === 'login')!;
        submit.outcomes.ACCOUNT_SUSPENDED = { navigate: { to: '/accountMoved' } };
        submit.outcomes.AUTHENTICATION_FAILURE = { error: 'login.errors.generic' };
      },
    });
    expect(diff).toEqual([
      {
        kind: 'route-changed',
        screen: 'login',
        step: 'credentials',
        call: { kind: 'submit', operation: 'login' },
        code: 'ACCOUNT_SUSPENDED',
        before: { kind: 'stay' },
        after: { kind: 'route', path: '/accountMoved' },
      },
      {
        kind: 'message-changed',
        screen: 'login',
        step: 'credentials',
        call: { kind: 'submit', operation: 'login' },
        code: 'AUTHENTICATION_FAILURE',
        before: 'login.errors.invalidCredentials',
        after: 'login.errors.generic',
      },
    ]);
  });

  it('names a label changed in one language as the field relabelled in that language; other texts by key with where they show', () => {
    const diff = diffWith({
      'locales/de-de/login.json': (texts) => {
        texts.fields.email = 'Geschäftliche E-Mail';
        texts.forgotPassword = 'Kennwort vergessen? (neu)';
      },
    });
    const de = JSON.parse(read('locales/de-de/login.json')) as Json;
    expect(diff).toEqual([
      { kind: 'field-relabelled', screen: 'login', step: 'credentials', field: 'email', lang: 'de-de', before: de.fields.email, after: 'Geschäftliche E-Mail' },
      {
        kind: 'text-changed',
        lang: 'de-de',
        key: 'login.forgotPassword',
        before: de.forgotPassword,
        after: 'Kennwort vergessen? (neu)',
        uses: [{ screen: 'login', step: 'credentials' }],
      },
    ]);
  });

  it('lists any other difference by its JSON pointer, so that nothing changed goes unmentioned', () => {
    const diff = diffWith({
      'screens/login.json': (login) => {
        credentials(login).probes[0].debounceMs = 400;
      },
    });
    expect(diff).toEqual([{ kind: 'screen-other', screen: 'login', step: 'credentials', pointers: ['/steps/credentials/probes/0/debounceMs'] }]);
  });

  it('a file that does not parse is one whole-file change; a new locale file is named', () => {
    const diff = diffCatalogue({
      paths: ['screens/login.json', 'locales/de-de/extra.json'],
      before: (path) => (path === 'locales/de-de/extra.json' ? null : read(path)),
      after: (path) => (path === 'screens/login.json' ? '{ "id": ' : path === 'locales/de-de/extra.json' ? '{ "a": "b" }' : read(path)),
      screens,
      defaultLanguage: 'en-us',
    });
    expect(diff).toEqual([
      { kind: 'screen-other', screen: 'login', pointers: [''] },
      { kind: 'file-added', path: 'locales/de-de/extra.json' },
      { kind: 'text-added', lang: 'de-de', key: 'extra.a', after: 'b', uses: [] },
    ]);
  });
});
