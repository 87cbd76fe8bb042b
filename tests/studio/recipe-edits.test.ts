import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkProject } from '../../catalogue/check/check';
import { withEnglish } from '../../catalogue/check/pending';
import { addField, callPath, fieldOrder, moveField, nameFromLabel, parseObject, removeField, routeCode, setText, swapWidget } from '../../studio/recipes/edits';

/**
 * The studio's recipe edits (studio/recipes/edits.ts) on the real screen files: each changes exactly
 * the members concerned (the rest of the file keeps its bytes) and the edited catalogue passes the
 * same check as the build, with the texts only in English pending.
 */
const repo = resolve(__dirname, '../..');
const login = readFileSync(join(repo, 'screens/login.json'), 'utf8');
const enLogin = readFileSync(join(repo, 'locales/en-us/login.json'), 'utf8');
const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The catalogue check on a copy with these files replaced. */
function check(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'frontdoor-recipe-edits-'));
  temps.push(root);
  for (const part of ['screens', 'schemas', 'locales']) cpSync(join(repo, part), join(root, part), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
  const { project, problems, pending } = checkProject({ root });
  return { problems, pending: withEnglish(project, pending) };
}

const json = (text: string) => parseObject(text) as Record<string, any>;

describe('studio recipe edits', () => {
  it('add a field: property, required, label key, ui:order and the English text; the rest pending', () => {
    const edit = addField(login, { 'en-us/login.json': enLogin }, 'login', 'credentials', {
      name: 'companyCode',
      kind: 'text',
      label: 'Company code',
      required: true,
      after: 'email',
    });
    const step = json(edit.screen).steps.credentials;
    expect(step.schema.properties.companyCode).toEqual({ type: 'string', maxLength: 200 });
    expect(step.schema.required).toEqual(['email', 'password', 'companyCode']);
    expect(step.uiSchema['ui:order']).toEqual(['email', 'companyCode', 'password', 'staySignedIn', 'passkey']);
    expect(step.uiSchema.companyCode).toEqual({ 'ui:title': 'login.fields.companyCode' });
    expect(json(edit.locales['en-us/login.json'] ?? '').fields.companyCode).toBe('Company code');
    // Only the lines of the edit change: the file keeps its compact style elsewhere.
    expect(edit.screen).toContain('"email": { "$ref": "defs/email.json" },');
    const { problems, pending } = check({ 'screens/login.json': edit.screen, 'locales/en-us/login.json': edit.locales['en-us/login.json'] ?? '' });
    expect(problems).toEqual([]);
    expect(pending).toEqual([expect.objectContaining({ key: 'login.fields.companyCode', english: 'Company code', file: 'locales/en-us/login.json' })]);
    expect(pending[0]?.languages).toHaveLength(17);
  });

  it('reorder, remove and swap a widget keep the catalogue clean', () => {
    const moved = moveField(login, 'credentials', 'password', -1);
    expect(fieldOrder(json(moved), 'credentials')).toEqual(['password', 'email', 'staySignedIn', 'passkey']);
    expect(moveField(moved, 'credentials', 'password', -1)).toBe(moved);
    const removed = removeField(moved, 'credentials', 'staySignedIn');
    const step = json(removed).steps.credentials;
    expect(step.schema.properties.staySignedIn).toBeUndefined();
    expect(step.uiSchema.staySignedIn).toBeUndefined();
    expect(step.uiSchema['ui:order']).toEqual(['password', 'email', 'passkey']);
    expect(JSON.stringify(step.submit)).not.toContain('"/staySignedIn"');
    const swapped = swapWidget(removed, 'credentials', 'email', 'textarea');
    expect(json(swapped).steps.credentials.uiSchema.email['ui:widget']).toBe('textarea');
    expect(check({ 'screens/login.json': swapped }).problems).toEqual([]);
  });

  it('route a result code: the own outcome keeps what the code showed and gets a new destination', () => {
    const screen = json(login);
    const index = (screen.steps.credentials.submit as Array<{ operation?: string }>).findIndex((s) => s.operation === 'login');
    const path = callPath(screen, 'credentials', `submit-${index}`);
    expect(path).toEqual(['steps', 'credentials', 'submit', index]);
    const routed = routeCode(login, path ?? [], 'ACCOUNT_SUSPENDED', { error: 'login.errors.accountSuspended', step: 'x' }, { navigate: '/requestActivation' });
    expect(json(routed).steps.credentials.submit[index].outcomes.ACCOUNT_SUSPENDED).toEqual({
      error: 'login.errors.accountSuspended',
      navigate: { to: '/requestActivation' },
    });
  });

  it('a text: set in one language, emptied back to pending', () => {
    const de = readFileSync(join(repo, 'locales/de-de/login.json'), 'utf8');
    const set = setText({ 'de-de/login.json': de }, 'login.fields.email', 'de-de', 'Geschäftliche E-Mail');
    expect(json(set['de-de/login.json'] ?? '').fields.email).toBe('Geschäftliche E-Mail');
    const emptied = setText(set, 'login.fields.email', 'de-de', '');
    expect(json(emptied['de-de/login.json'] ?? '').fields.email).toBeUndefined();
    const { problems, pending } = check({ 'locales/de-de/login.json': emptied['de-de/login.json'] ?? '' });
    expect(problems).toEqual([]);
    expect(pending.map((p) => [p.key, p.languages])).toEqual([['login.fields.email', ['de-de']]]);
  });
});

describe('a field name made from its label', () => {
  it('camelCase of the letters and digits, accents dropped, a small letter first, a number when taken', () => {
    expect(nameFromLabel('Company code')).toBe('companyCode');
    expect(nameFromLabel("Numéro d'employé")).toBe('numeroDEmploye');
    expect(nameFromLabel('  VAT number (EU) ')).toBe('vATNumberEU');
    expect(nameFromLabel('2nd address line')).toBe('field2ndAddressLine');
    expect(nameFromLabel('Email', ['email'])).toBe('email2');
    expect(nameFromLabel('Email', ['email', 'email2'])).toBe('email3');
    expect(nameFromLabel('!!!')).toBe('');
    for (const label of ['Company code', "Numéro d'employé", '2nd address line', 'Größe in cm']) expect(nameFromLabel(label)).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });
});
