import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { I18N_OPTIONS } from '../../src/app/i18n-options';
import { translator, type TextTree } from '../../catalogue/language/texts';
import { pluralBase } from '../../catalogue/language/icu';

/**
 * The app's translator (src/lib/i18n.tsx) says what i18next says — the studio's preview renders with
 * i18next, the app with the translator — for every text of every compiled locale
 * (src/generated/locales, written by the build): each key with its placeholders filled, each plural
 * at counts that reach every CLDR category, a key missing in a language (the fallback) and an
 * unknown key.
 */
const DIR = join(__dirname, '../../src/generated/locales');
const bundles: Record<string, TextTree> = Object.fromEntries(
  readdirSync(DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(DIR, file), 'utf8')) as TextTree]),
);
const COUNTS = [0, 1, 2, 3, 5, 7, 11, 21, 100, 101, 1.5, 12345];

function leaves(tree: unknown, prefix = ''): Array<[string, string]> {
  if (typeof tree === 'string') return [[prefix, tree]];
  if (tree === null || typeof tree !== 'object') return [];
  return Object.entries(tree).flatMap(([key, value]) => leaves(value, prefix ? `${prefix}.${key}` : key));
}

/** Sample values for a text's placeholders ({{name}} and {{name, number}}). */
function valuesFor(text: string): Record<string, unknown> {
  return Object.fromEntries([...text.matchAll(/\{\{\s*([^},\s]+)\s*(,\s*number)?\s*\}\}/g)].map((m) => [m[1], m[2] ? 1234.5 : `<${m[1]}>`]));
}

describe('the translator against i18next', () => {
  it('has the compiled locales to compare (npm run build writes them)', () => {
    expect(Object.keys(bundles)).toContain('en-us');
    expect(Object.keys(bundles).length).toBeGreaterThanOrEqual(18);
  });

  for (const lang of Object.keys(bundles)) {
    it(`${lang}: every text, plural and placeholder`, async () => {
      const reference = i18next.createInstance();
      await reference.init({
        ...I18N_OPTIONS,
        resources: Object.fromEntries(Object.entries(bundles).map(([code, tree]) => [code, { translation: tree }])),
        lng: lang,
        initAsync: false,
      });
      const t = translator(bundles, lang, 'en-us');
      const keys = new Map<string, string>();
      for (const [key, text] of leaves(bundles[lang])) keys.set(pluralBase(key), `${keys.get(pluralBase(key)) ?? ''}${text}`);
      let compared = 0;
      for (const [key, texts] of keys) {
        const values = valuesFor(texts);
        expect(t(key, values), key).toBe(reference.t(key, values));
        for (const count of COUNTS) {
          expect(t(key, { ...values, count }), `${key} count ${count}`).toBe(reference.t(key, { ...values, count }));
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(1000);
      // A text the language lacks comes from en-us; an unknown key is the key itself.
      const partial = translator({ [lang]: {}, 'en-us': bundles['en-us'] }, lang, 'en-us');
      expect(partial('login.title')).toBe(bundles['en-us'] ? translator(bundles, 'en-us', 'en-us')('login.title') : 'login.title');
      expect(t('no.such.key')).toBe(reference.t('no.such.key'));
    });
  }
});
