import { readFileSync } from 'node:fs';
import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { acceptedLanguages, pickLanguage } from '../../catalogue/language/languages';
import { looksLikeEmail } from '../../catalogue/language/patterns';
import { languageFor } from '../../server/spa/html';
import { E164 } from '../../server/services/lists';

/**
 * The rules the browser and the server share, each written once (catalogue/language, schemas/defs):
 * the phone pattern, the email shape and the choice of language. return_to has its attack table
 * (tests/security/redirects.test.ts), run against the app's and the server's use of the one rule.
 */
const phone = JSON.parse(readFileSync('schemas/defs/phone.json', 'utf8')) as { pattern: string };

describe('E.164 (schemas/defs/phone.json): the form checks it, the server reads the same pattern', () => {
  const pattern = new RegExp(phone.pattern, 'u');

  it('is the one the server uses (server/services/lists.ts E164)', () => {
    expect(E164.source).toBe(new RegExp(phone.pattern).source);
  });

  it('takes numbers of up to 15 digits (ITU-T E.164), not 16', () => {
    expect(pattern.test('+491701234567890')).toBe(true);
    expect(pattern.test('+4917012345678901')).toBe(false);
  });

  it('takes the shortest numbers in use: a real 6-digit number (Austria, +43 1110) that a 7-digit minimum refused', () => {
    expect(isValidPhoneNumber('+431110')).toBe(true);
    expect(pattern.test('+431110')).toBe(true);
  });

  it('needs four digits after the country code’s first (SPEC §5: the last four digits), a country code and nothing but digits', () => {
    expect(pattern.test('+12345')).toBe(true);
    expect(pattern.test('+1234')).toBe(false);
    expect(pattern.test('+0123456789')).toBe(false);
    expect(pattern.test('4915112345678')).toBe(false);
    expect(pattern.test('+49 151 1234')).toBe(false);
  });
});

describe('the email shape (catalogue/language/patterns.ts)', () => {
  it('takes an address and refuses what is not one, or would end one in markup', () => {
    expect(looksLikeEmail('jo@example.com')).toBe(true);
    expect(looksLikeEmail(`${'a'.repeat(64)}@example.com`)).toBe(true);
    for (const value of [
      'jo',
      'jo@',
      '@example.com',
      'jo @example.com',
      'a@b@c',
      '<jo@example.com>',
      'jo"@example.com',
      `${'a'.repeat(65)}@example.com`,
      42,
      undefined,
    ])
      expect(looksLikeEmail(value)).toBe(false);
  });
});

describe('the language (catalogue/language/languages.ts): the server picks what the app will show', () => {
  const available = ['en-us', 'en-gb', 'de-de', 'fr-fr', 'fr-ca', 'ja-jp'];

  it('reads Accept-Language by quality, without q=0 and the wildcard', () => {
    expect(acceptedLanguages('fr-CA;q=0.5, de-DE, *;q=0.9, ja;q=0')).toEqual(['de-de', 'fr-ca']);
    expect(acceptedLanguages('')).toEqual([]);
  });

  it('exact tag, then one of the same base language, else the default', () => {
    expect(pickLanguage(['fr-CA', 'en-US'], available, 'en-us')).toBe('fr-ca');
    expect(pickLanguage(['de-AT'], available, 'en-us')).toBe('de-de');
    expect(pickLanguage(['ko-KR'], available, 'en-us')).toBe('en-us');
  });

  it("the server's answer for a header is the app's for the browser's language list", () => {
    for (const [header, languages] of [
      ['fr-CA,fr;q=0.8', ['fr-CA', 'fr']],
      ['en;q=0.1, de-DE', ['de-DE', 'en']],
      ['xx', ['xx']],
      ['ja-JP, *', ['ja-JP']],
    ] as const)
      expect(languageFor(header, available)).toBe(pickLanguage(languages, available, 'en-us'));
  });
});
