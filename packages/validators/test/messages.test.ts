import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import addValidators, {
  enUsValidation,
  languages,
  matchLanguage,
  messageFor,
  messageKeyFor,
  textsFor,
  validationTexts,
  type ValidationTexts,
} from '../src/index.js';

/** Every leaf of a texts object as [dotted key, text]. */
function leaves(texts: object, prefix = ''): [string, string][] {
  return Object.entries(texts).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v as object, `${prefix}${k}.`),
  );
}
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', notBlank: true, limit: 'name' },
    password: { type: 'string', passwordPolicy: true },
    confirm: { type: 'string', sameAs: 'password' },
    port: { integerRange: [1, 65535] },
  },
};
const bad = { name: 'n'.repeat(151), password: 'password', confirm: 'x', port: 0 };
const messages = (options: Parameters<typeof addValidators>[1]) => {
  const v = addValidators(new Ajv({ allErrors: true }), options).compile(schema);
  v(bad);
  return Object.fromEntries(v.errors!.map((e) => [e.keyword, e.message]));
};

describe('messages', () => {
  // The list itself lives once, in src/languages.ts; the app's tests/i18n/completeness.test.ts holds it
  // to the app's (schemas/defs/language.json: SPEC §3's sixteen plus Arabic and Hebrew).
  it('ship 18 languages, Arabic and Hebrew among them, each with its texts file and no file without a language', () => {
    const files = readdirSync(new URL('../src/texts/', import.meta.url)).map((f) => f.replace(/\.ts$/, ''));
    expect(new Set(languages).size).toBe(18);
    expect(languages).toEqual(expect.arrayContaining(['en-us', 'ar', 'he']));
    expect([...languages].sort()).toEqual(files.sort());
  });

  it.each(languages.map((l) => [l]))('%s has every key of en-us, no other, none empty, the same placeholders', (language) => {
    const reference = new Map(leaves(enUsValidation));
    const texts = new Map(leaves(validationTexts[language]));
    expect([...texts.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of texts) {
      expect(text.trim(), `${language} ${key}`).not.toBe('');
      expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(reference.get(key)!));
    }
  });

  it('are translations: apart from the English ones, no language repeats the en-us text of a sentence', () => {
    for (const language of languages.filter((l) => !l.startsWith('en-'))) {
      const same = leaves(validationTexts[language]).filter(([k, v]) => v === new Map(leaves(enUsValidation)).get(k));
      expect(same, language).toEqual([]);
    }
  });

  it("the keywords' error.message is English text by default, with the schema's values", () => {
    expect(messages({})).toEqual({
      limit: 'Field exceeds the maximum character count of 150.',
      passwordPolicy: enUsValidation.password,
      sameAs: 'Passwords do not match',
      integerRange: 'Enter a whole number from 1 to 65535.',
    });
  });

  it('option language chooses the text; a tag is matched to a language; an unknown one throws', () => {
    expect(messages({ language: 'de-de' })).toEqual({
      limit: 'Das Feld überschreitet die maximale Zeichenanzahl von 150.',
      passwordPolicy: validationTexts['de-de'].password,
      sameAs: 'Die Passwörter stimmen nicht überein',
      integerRange: 'Geben Sie eine ganze Zahl von 1 bis 65535 ein.',
    });
    expect(messages({ language: 'ar' }).integerRange).toBe('أدخل عددًا صحيحًا من 1 إلى 65535.');
    expect(messages({ language: 'he' }).sameAs).toBe('הסיסמאות אינן תואמות');
    expect(messages({ language: 'ja-JP' }).sameAs).toBe(validationTexts['ja-jp'].passwordsDoNotMatch);
    expect(matchLanguage('de_AT')).toBe('de-de');
    expect(matchLanguage('en')).toBe('en-us');
    expect(matchLanguage('fr-CA')).toBe('fr-ca');
    expect(matchLanguage('xx')).toBeUndefined();
    expect(() => addValidators(new Ajv(), { language: 'klingon' })).toThrow(/no texts for language "klingon"; available: en-us, .*he/);
    expect(() => textsFor('xx')).toThrow(/available/);
  });

  it('option messageKeys puts the i18n key in error.message (1.x behaviour)', () => {
    expect(messages({ messageKeys: true })).toEqual({
      limit: 'validation.maxLength',
      passwordPolicy: 'validation.password',
      sameAs: 'validation.passwordsDoNotMatch',
      integerRange: 'validation.integerRange',
    });
  });

  it('keys and params stay the same whatever the language', () => {
    const keys = (language: string) => {
      const v = addValidators(new Ajv({ allErrors: true }), { language }).compile(schema);
      v(bad);
      return v.errors!.map((e) => [messageKeyFor(e), e.params]);
    };
    expect(keys('ru-ru')).toEqual(keys('en-us'));
    expect(keys('en-us')).toContainEqual([
      { key: 'validation.integerRange', values: { min: 1, max: 65535 } },
      { min: 1, max: 65535 },
    ]);
  });

  it('messageFor gives any error, ajv built-ins and formats too, as text in a language', () => {
    const ajv = addValidators(new Ajv({ allErrors: true }));
    const v = ajv.compile({ type: 'object', required: ['email'], properties: { site: { type: 'string', format: 'url' }, n: { maxLength: 3 } } });
    v({ site: 'javascript:alert(1)', n: 'abcd' });
    const fr: ValidationTexts = validationTexts['fr-fr'];
    expect(v.errors!.map((e) => messageFor(e))).toEqual(['Required', 'Enter a valid URL.', 'Field exceeds the maximum character count of 3.']);
    expect(v.errors!.map((e) => messageFor(e, fr))).toEqual([fr.required, fr.format.url, 'Le champ dépasse le nombre maximal de 3 caractères.']);
    expect(messageFor({ keyword: 'pattern', params: {} }, textsFor('he'))).toBe(validationTexts.he.invalid);
  });
});
