import { describe, expect, it } from 'vitest';
import { THEMES, isTheme } from '../../src/app/themes';
import { htmlLang, pickLanguage } from '../../src/app/i18n';

/**
 * Fast checks of the presentation data without a browser: the theme names, language choice and lang
 * attributes. The themes' colours and their contrast: tests/ui/tokens.test.ts.
 */
describe('themes', () => {
  it('are the seven of SPEC §3, theme-ninja-blue first (the default)', () => {
    expect(THEMES).toEqual(['theme-ninja-blue', 'theme-one', 'theme-two', 'theme-three', 'theme-four', 'theme-five', 'theme-six']);
    expect(isTheme('theme-four')).toBe(true);
    expect(isTheme('theme-seven')).toBe(false);
    expect(isTheme('theme-four"><script>')).toBe(false);
  });
});

describe('language choice', () => {
  const available = ['en-us', 'en-gb', 'de-de', 'fr-fr', 'fr-ca', 'nn-nn', 'ja-jp'];
  it('takes the first browser language we have, else its base language, else en-us', () => {
    expect(pickLanguage(['fr-CA', 'en-US'], available)).toBe('fr-ca');
    expect(pickLanguage(['de-AT'], available)).toBe('de-de');
    expect(pickLanguage(['zz', 'ja'], available)).toBe('ja-jp');
    expect(pickLanguage(['ko-KR'], available)).toBe('en-us');
  });

  it('writes valid BCP 47 lang attributes for our tags', () => {
    expect(htmlLang('nn-nn')).toBe('nn-NO');
    expect(htmlLang('sv-sv')).toBe('sv-SE');
    expect(htmlLang('da-da')).toBe('da-DK');
    expect(htmlLang('pt-br')).toBe('pt-BR');
    expect(htmlLang('en-us')).toBe('en-US');
  });
});
