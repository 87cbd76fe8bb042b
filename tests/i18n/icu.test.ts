import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { checkProject, formatProblem } from '../../catalogue/check/check';
import { compileLocale, icuProblems, isIcu, pluralCategoriesOf, textArguments, type Tree } from '../../catalogue/language/icu';
import { joinParts, splitText } from '../../scripts/i18n/inline';
import { pseudoLocale, pseudoText } from '../../catalogue/language/pseudo';

/**
 * ICU MessageFormat texts (catalogue/language/icu.ts): compiled by the build into i18next's own plural
 * keys, so i18next picks the form with Intl.PluralRules in every language; checked by the catalogue
 * check per file and key; and the pseudo-locale made from them.
 */
const REPO = join(__dirname, '../..');

async function t(lang: string, texts: Tree, key: string, values: Record<string, unknown>): Promise<string> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: lang,
    fallbackLng: 'en-us',
    lowerCaseLng: true,
    resources: { [lang]: { translation: compileLocale(texts) } },
    interpolation: { escapeValue: false },
  });
  return instance.t(key, values);
}

describe('ICU plurals, compiled at build time', () => {
  const arabic = '{count, plural, zero {لا شيء} one {ثانية واحدة} two {ثانيتان} few {# ثوانٍ} many {# ثانية} other {# ثانيةٍ}}';

  it('picks every one of Arabic’s six forms (zero one two few many other) by the number', async () => {
    const cases: Array<[number, string]> = [
      [0, 'لا شيء'],
      [1, 'ثانية واحدة'],
      [2, 'ثانيتان'],
      [3, '3 ثوانٍ'],
      [10, '10 ثوانٍ'],
      [11, '11 ثانية'],
      [99, '99 ثانية'],
      [100, '100 ثانيةٍ'],
      [102, '102 ثانيةٍ'],
    ];
    for (const [count, text] of cases)
      expect(
        (await t('ar', { c: arabic }, 'c', { count })).replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660)),
        String(count),
      ).toBe(text);
  });

  it('Hebrew one/two/other, Russian one/few/many, Japanese other; =0 before the category; text around the plural kept', async () => {
    const he = '{count, plural, one {שנייה אחת} two {שתי שניות} other {# שניות}}';
    expect(await t('he', { c: he }, 'c', { count: 1 })).toBe('שנייה אחת');
    expect(await t('he', { c: he }, 'c', { count: 2 })).toBe('שתי שניות');
    expect(await t('he', { c: he }, 'c', { count: 7 })).toBe('7 שניות');
    const ru = 'Через {count, plural, one {# секунду} few {# секунды} many {# секунд} other {# секунды}}, {name}.';
    expect(await t('ru-ru', { c: ru }, 'c', { count: 21, name: 'Ада' })).toBe('Через 21 секунду, Ада.');
    expect(await t('ru-ru', { c: ru }, 'c', { count: 3, name: 'Ада' })).toBe('Через 3 секунды, Ада.');
    expect(await t('ru-ru', { c: ru }, 'c', { count: 5, name: 'Ада' })).toBe('Через 5 секунд, Ада.');
    expect(await t('ja-jp', { c: '{count, plural, other {# 秒}}' }, 'c', { count: 1 })).toBe('1 秒');
    const en = '{count, plural, =0 {No codes left.} one {# code left.} other {# codes left.}}';
    expect(await t('en-us', { c: en }, 'c', { count: 0 })).toBe('No codes left.');
    expect(await t('en-us', { c: en }, 'c', { count: 1 })).toBe('1 code left.');
    expect(await t('en-us', { c: en }, 'c', { count: 1000 })).toBe('1,000 codes left.');
  });

  it('a plain text is left as it is; an ICU text without a plural becomes {{placeholders}}', () => {
    expect(compileLocale({ a: 'Sign in with {{idpName}}', b: 'Hello {name}', c: "It's {n, number}" })).toEqual({
      a: 'Sign in with {{idpName}}',
      b: 'Hello {{name}}',
      c: "It's {{n, number}}",
    });
    expect(isIcu('Sign in with {{idpName}}')).toBe(false);
    expect(isIcu('{count, plural, other {x}}')).toBe(true);
  });

  it('the plural categories come from CLDR through Intl', () => {
    expect(pluralCategoriesOf('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(pluralCategoriesOf('he')).toEqual(['one', 'two', 'other']);
    expect(pluralCategoriesOf('ja-jp')).toEqual(['other']);
    expect(pluralCategoriesOf('pl-pl')).toEqual(['one', 'few', 'many', 'other']);
  });

  it('names what is wrong: syntax, a form the language lacks or does not have, what the build cannot compile', () => {
    expect(icuProblems('{count, plural, one {x} other {y}', 'de-de')[0]).toMatch(/^ICU syntax: .* \(at character \d+\)$/);
    expect(icuProblems('{count, plural, one {x} other {y}}', 'ar')).toEqual([
      'the plural lacks the form(s) zero, two, few, many of ar (its forms: zero, one, two, few, many, other)',
    ]);
    expect(icuProblems('{count, plural, one {x} few {y} other {z}}', 'de-de')).toEqual(['de-de has no plural form "few" (its forms: one, other)']);
    expect(icuProblems('{count, plural, one {x} other {y}} {count, plural, one {x} other {y}}', 'en-us')).toContain(
      'only one plural per text (split the text in two)',
    );
    expect(icuProblems('{n, plural, one {x} other {y}}', 'en-us')[0]).toMatch(/must be called \{count, plural, …\}/);
    expect(icuProblems('{g, select, a {x} other {y}}', 'en-us')[0]).toMatch(/select is not supported yet/);
    expect(icuProblems('{count, plural, =1 {x} other {y}}', 'ja-jp')[0]).toMatch(/exact case =1 is not supported/);
    expect(icuProblems('Plain {{x}} text', 'ar')).toEqual([]);
    expect(textArguments('{count, plural, one {# for {name}} other {# for {name}}}')).toEqual(['count', 'name']);
    expect(textArguments('Sign in with {{idpName}}')).toEqual(['idpName']);
  });
});

describe('the catalogue check of every text', () => {
  const check = (files: Record<string, string>) => checkProject({ root: REPO }, { files }).problems;
  const edited = (lang: string, file: string, change: (doc: Record<string, unknown>) => void) => {
    const path = `locales/${lang}/${file}.json`;
    const doc = JSON.parse(readFileSync(join(REPO, path), 'utf8')) as Record<string, unknown>;
    change(doc);
    return { [path]: JSON.stringify(doc, null, 2) };
  };

  it('reports ICU syntax, plural forms and placeholders with file, JSON pointer, line and reason', () => {
    const problems = check({
      ...edited('ar', 'accountMoved', (d) => (d.countdown = '{count, plural, one {ثانية} other {# ثوانٍ}}')),
      ...edited('de-de', 'accountMoved', (d) => (d.countdown = '{count, plural, one {# Sekunde} other {# Sekunden}')),
      ...edited('fr-fr', 'login', (d) => (d.submitSso = 'Se connecter avec {{idp}}')),
    }).map(formatProblem);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^locales\/ar\/accountMoved\.json:5:\d+ at \/countdown: the plural lacks the form\(s\) zero, two, few, many of ar/),
        expect.stringMatching(/^locales\/de-de\/accountMoved\.json:5:\d+ at \/countdown: ICU syntax: /),
        expect.stringMatching(/^locales\/fr-fr\/login\.json:\d+:\d+ at \/submitSso: the translation drops \{\{idpName\}\} of the en-us text/),
        expect.stringMatching(/^locales\/fr-fr\/login\.json:\d+:\d+ at \/submitSso: the translation uses \{\{idp\}\}, which the en-us text does not have/),
      ]),
    );
  });

  it('control: the real catalogue has none', () => {
    expect(check({}).map(formatProblem)).toEqual([]);
  });
});

describe('the pseudo-locale', () => {
  it('accents every letter, brackets the text, lengthens it by about 40 % and keeps placeholders', () => {
    expect(pseudoText('Sign in with {{idpName}}')).toMatch(/^⟦Šíĝñ íñ ŵíţĥ \{\{idpName\}\} \S.*⟧$/);
    const long = 'Open the link in the email to activate your account, then sign in.';
    const shown = pseudoText(long);
    expect(shown.length / long.length).toBeGreaterThan(1.35);
    expect(shown.length / long.length).toBeLessThan(1.5);
    expect(shown).not.toMatch(/[a-zA-Z]/);
  });

  it('is made from the compiled en-us texts: every key, plural forms included', () => {
    const pseudo = pseudoLocale(compileLocale({ c: '{count, plural, one {# second} other {# seconds}}', d: { e: 'Email' } }));
    expect(pseudo).toEqual({
      c_one: expect.stringContaining('{{count, number}} šéçöñđ'),
      c: expect.stringContaining('šéçöñđš'),
      d: { e: expect.stringMatching(/^⟦Éɱáíļ/) },
    });
  });
});

describe('codes a translator must keep', () => {
  it('cuts a text into words and codes, and puts it together unchanged', () => {
    for (const text of ['Sign in with {{idpName}}', '{count, plural, one {In # second, {name}.} other {In # seconds, {name}.}}', 'No codes at all']) {
      expect(joinParts(splitText(text))).toBe(text);
    }
    expect(splitText('{count, plural, one {# second} other {# seconds}}')).toEqual([
      '{count, plural, one {',
      { code: '#' },
      ' second} other {',
      { code: '#' },
      ' seconds}}',
    ]);
  });
});
