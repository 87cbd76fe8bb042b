import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { languages as validatorLanguages } from '@frontdoor/validators';
import { SUPPORTED_LANGUAGES } from '../../src/app/languages';
import { textDirection } from '../../src/lib/language-tags';
import { compileLocale, icuProblems, textArguments, type Tree as IcuTree } from '../../catalogue/language/icu';

/**
 * Every language (SPEC §3's sixteen, Arabic and Hebrew) is complete: the same files and keys as
 * en-us (missing or extra keys fail), the same placeholders ({{x}}, ICU {x}) and $t() nestings, no
 * empty text, each ICU plural with exactly the forms of the language's plural rules, and real
 * translations rather than English copies.
 */
const ROOT = join(__dirname, '../..');
const LOCALES = join(ROOT, 'locales');
// The app's list (schemas/defs/language.json via src/app/languages.ts), held equal to the validators package's below.
const LANGUAGES = SUPPORTED_LANGUAGES;
const PLURAL_SUFFIXES = ['zero', 'one', 'two', 'few', 'many', 'other'];

type Tree = { [key: string]: string | Tree };

function read(lang: string): Record<string, Tree> {
  const dir = join(LOCALES, lang);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8')) as Tree]),
  );
}

function flatten(tree: Tree | Record<string, Tree>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') flatten(value as Tree, path, out);
    else out[path] = value;
  }
  return out;
}

/** 'a.count_one' -> ['a.count', 'one']; keys without a plural suffix -> [key, undefined]. */
function pluralBase(key: string): [string, string | undefined] {
  const match = /^(.*)_(zero|one|two|few|many|other)$/.exec(key);
  return match ? [match[1] ?? key, match[2]] : [key, undefined];
}

/**
 * The keys a language must have: en-us's keys, with each plural group expanded to the categories
 * the language's plural rules use (Russian needs one/few/many/other, Japanese only other).
 */
export function expectedKeys(english: string[], lang: string): string[] {
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories as string[];
  const keys = new Set<string>();
  for (const key of english) {
    const [base, suffix] = pluralBase(key);
    if (suffix === undefined) keys.add(key);
    else for (const category of categories) keys.add(`${base}_${category}`);
  }
  return [...keys].sort();
}

const tokens = (text: string) => [...(textArguments(text) ?? ['(ICU syntax error)']), ...[...text.matchAll(/\$t\(([^),]+)/g)].map((m) => `$t:${m[1]}`)].sort();

const english = flatten(read('en-us'));
const englishKeys = Object.keys(english);

describe('locales', () => {
  it('has exactly the sixteen SPEC languages, Arabic and Hebrew', () => {
    const present = readdirSync(LOCALES).filter((name) => existsSync(join(LOCALES, name, '.')) && !name.includes('.'));
    expect(LANGUAGES).toHaveLength(18);
    expect(LANGUAGES).toEqual(expect.arrayContaining(['en-us', 'fr-ca', 'ja-jp', 'ar', 'he']));
    expect(present.sort()).toEqual([...LANGUAGES].sort());
  });

  it("are the validators package's languages (it ships its own list: it cannot read the app's)", () => {
    expect([...validatorLanguages].sort()).toEqual([...LANGUAGES].sort());
  });

  describe.each(LANGUAGES.filter((l) => l !== 'en-us'))('%s', (lang) => {
    const locale = flatten(read(lang));

    it('has the same files as en-us', () => {
      expect(Object.keys(read(lang)).sort()).toEqual(Object.keys(read('en-us')).sort());
    });

    it('has every key of en-us and no other (plural forms per its rules)', () => {
      const want = expectedKeys(englishKeys, lang);
      const have = Object.keys(locale).sort();
      expect({ missing: want.filter((k) => !have.includes(k)), extra: have.filter((k) => !want.includes(k)) }).toEqual({ missing: [], extra: [] });
    });

    it('keeps every placeholder and nesting, and leaves no text empty', () => {
      const wrong: string[] = [];
      for (const [key, value] of Object.entries(locale)) {
        if (typeof value !== 'string' || value.trim() === '') wrong.push(`${key}: empty`);
        const [base] = pluralBase(key);
        const source = english[key] ?? english[`${base}_other`];
        if (typeof source === 'string' && typeof value === 'string' && tokens(source).join() !== tokens(value).join()) {
          wrong.push(`${key}: ${JSON.stringify(value)} vs ${JSON.stringify(source)}`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it('writes each ICU text with the plural forms of its language, nothing the build cannot compile', () => {
      const wrong = Object.entries(locale).flatMap(([key, value]) => (typeof value === 'string' ? icuProblems(value, lang).map((p) => `${key}: ${p}`) : []));
      expect(wrong).toEqual([]);
    });

    it('is translated, not an English copy', () => {
      if (lang.startsWith('en-')) return; // English variants differ only in spelling and terms
      // Names that stay the same everywhere: languages in their own names, products, numbers.
      const comparable = englishKeys.filter((k) => !k.includes('.languages.') && /\p{L}{3,}/u.test(String(english[k]).replace(/\{\{[^}]+\}\}/g, '')));
      const same = comparable.filter((k) => locale[k] === english[k]);
      expect(same.length / comparable.length, `identical to en-us: ${same.join(', ')}`).toBeLessThan(0.1);
    });
  });

  // In a right-to-left paragraph the bidi algorithm shows '2014–2026' as '2026–2014': the range is
  // isolated left to right (LRI … PDI) where a right-to-left text holds it.
  it('keeps the copyright year range in order in right-to-left languages', () => {
    const rtl = LANGUAGES.filter((lang) => textDirection(lang) === 'rtl');
    expect(rtl.length).toBeGreaterThan(0);
    for (const lang of rtl) {
      const text = String(flatten(read(lang))['app.copyright']);
      expect(text, lang).toContain('\u2066{{from}}–{{to}}\u2069');
    }
  });

  it('interpolates with i18next in every language', async () => {
    for (const lang of LANGUAGES) {
      const instance = i18next.createInstance();
      const translation = compileLocale(read(lang) as unknown as IcuTree);
      await instance.init({ lng: lang, lowerCaseLng: true, resources: { [lang]: { translation } }, interpolation: { escapeValue: false } });
      expect(instance.t('home.signedInAs', { email: 'dana.lee@demo.test' }), lang).toContain('dana.lee@demo.test');
      expect(instance.t('app.copyright', { from: 2014, to: 2026 }), lang).toMatch(/2014.*2026/);
      // An ICU plural, compiled by the build: a number in the sentence for every count, no brace left.
      for (const count of [1, 2, 3, 5, 11, 100]) {
        const text = instance.t('accountMoved.countdown', { count });
        expect(text, `${lang} ${count}`).not.toMatch(/[{}#]|countdown/);
      }
    }
  });

  it('knows the plural categories each language needs (the rules the key check applies)', () => {
    expect(expectedKeys(['x.count_one', 'x.count_other'], 'ru-ru')).toEqual(['x.count_few', 'x.count_many', 'x.count_one', 'x.count_other']);
    expect(expectedKeys(['x.count_one', 'x.count_other'], 'ja-jp')).toEqual(['x.count_other']);
    expect(expectedKeys(['x.count_one', 'x.count_other'], 'pl-pl')).toEqual(['x.count_few', 'x.count_many', 'x.count_one', 'x.count_other']);
    expect(expectedKeys(['x.count_one', 'x.count_other', 'y'], 'de-de')).toEqual(['x.count_one', 'x.count_other', 'y']);
    expect(PLURAL_SUFFIXES).toContain('other');
  });
});
