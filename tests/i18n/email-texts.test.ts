/**
 * The texts of emails and text messages (locales/<lang>/email.json, server/delivery/email): every
 * language has every key of en-us and no other, the same {{placeholders}}, no empty text, a real
 * translation; and every kind of message renders in every language without falling back.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from '../../src/app/languages';
import { composeEmail, composeText, type EmailInput } from '../../server/delivery/email/compose';
import { emailTexts, resolveLanguage } from '../../server/delivery/email/texts';

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flatten(v, `${prefix}${k}.`)))));
const tokens = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const texts = emailTexts();
const english = flatten(texts.get('en-us') as Tree);

it('has email texts for the sixteen spec languages plus Arabic and Hebrew', () => {
  expect([...texts.keys()].sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
  const folders = readdirSync(join(__dirname, '../../locales')).filter((n) => !n.includes('.'));
  expect(folders.sort()).toEqual([...texts.keys()].sort());
});

describe.each([...texts.keys()].filter((l) => l !== 'en-us'))('%s email texts', (lang) => {
  const own = flatten(texts.get(lang) as Tree);
  it('has the keys and placeholders of en-us, none empty, and is translated', () => {
    expect(Object.keys(own).sort()).toEqual(Object.keys(english).sort());
    const wrong = Object.entries(own).filter(([k, v]) => v.trim() === '' || tokens(v).join() !== tokens(english[k] ?? '').join());
    expect(wrong).toEqual([]);
    if (!lang.startsWith('en-')) {
      const same = Object.keys(english).filter((k) => own[k] === english[k] && /\p{L}{4,}/u.test((english[k] ?? '').replace(/\{\{\w+\}\}/g, '')));
      expect(same.length, `identical to en-us: ${same.join(', ')}`).toBeLessThan(3);
    }
  });
});

it('resolves a language by tag, then by primary subtag, then en-us', () => {
  const langs = [...texts.keys()];
  expect(resolveLanguage('de-de', langs)).toBe('de-de');
  expect(resolveLanguage('DE-AT', langs)).toBe('de-de');
  expect(resolveLanguage('ar-EG', langs)).toBe('ar');
  expect(resolveLanguage('he_IL', langs)).toBe('he');
  expect(resolveLanguage('tlh', langs)).toBe('en-us');
  expect(resolveLanguage(undefined, langs)).toBe('en-us');
});

const brand = { name: 'Acme <IT>', publicUrl: 'https://signin.acme.test' };
const inputs: EmailInput[] = [
  { kind: 'reset', link: 'https://signin.acme.test/resetPassword/k' },
  { kind: 'activation', link: 'https://signin.acme.test/activate/division/k' },
  { kind: 'registration', link: 'https://signin.acme.test/activate/division/k' },
  { kind: 'password-changed', link: 'https://signin.acme.test/resetPassword', when: Date.UTC(2026, 10, 25, 14, 5) },
  { kind: 'mfa-added', link: 'https://signin.acme.test/resetPassword', when: Date.UTC(2026, 10, 25, 14, 5), method: 'TOTP' },
  { kind: 'phone-changed', link: 'https://signin.acme.test/resetPassword', when: Date.UTC(2026, 10, 25, 14, 5), phone: '0199' },
  { kind: 'passkey-added', link: 'https://signin.acme.test/resetPassword', when: Date.UTC(2026, 10, 25, 14, 5) },
  { kind: 'recovery-code-used', link: 'https://signin.acme.test/resetPassword', when: Date.UTC(2026, 10, 25, 14, 5), left: 7 },
  { kind: 'trial-request', request: 'PURCHASE', email: 'dana@acme.test', company: 'Acme' },
];

describe.each([...texts.keys()])('every message in %s', (lang) => {
  it.each(inputs.map((i) => [i.kind, i] as const))('%s renders, escaped, with its link in both parts', (_kind, input) => {
    const m = composeEmail({ ...input, to: 'dana@acme.test', language: lang, brand });
    expect(m.language).toBe(lang);
    expect(m.subject).toBeTruthy();
    expect(m.html).not.toContain('{{');
    expect(m.text).not.toContain('{{');
    expect(m.html).not.toContain('Acme <IT>');
    if ('link' in input) {
      expect(m.text).toContain(input.link);
      expect(m.html).toContain(`href="${input.link}"`);
      expect(m.link).toBe(input.link);
    }
    if ('when' in input) expect(m.text).toMatch(/2026|٢٠٢٦/);
    if (input.kind === 'phone-changed') expect([m.text, m.html]).toEqual([expect.stringContaining('•••0199'), expect.stringContaining('•••0199')]);
    if (input.kind === 'recovery-code-used') expect(m.text).toMatch(/7|٧/);
    if (lang !== 'en-us' && !lang.startsWith('en-')) expect(m.subject).not.toBe(composeEmail({ ...input, to: 'd@a.test', language: 'en-us', brand }).subject);
  });

  it('renders both text messages with the code', () => {
    for (const kind of ['reset-code', 'mfa-code'] as const) {
      const m = composeText({ kind, code: '123456', to: '+14155550123', language: lang, brand: { ...brand, name: 'Acme' } });
      expect(m).toMatchObject({ channel: 'sms', kind, code: '123456', to: '+14155550123' });
      expect(m.text).toContain('123456');
      expect(m.text).toContain('Acme');
      expect(m.text.length).toBeLessThan(160);
    }
  });
});
