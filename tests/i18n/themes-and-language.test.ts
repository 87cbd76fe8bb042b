import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEMES, isTheme } from '../../src/app/themes';
import { htmlLang, pickLanguage } from '../../src/app/i18n';

/**
 * Fast checks of the presentation data without a browser: each theme in themes.css sets every
 * colour and meets the contrast pairs of docs/design.md; language choice and lang attributes.
 * (axe checks the rendered pages in tests/e2e/a11y.spec.ts.)
 */
const css = readFileSync(join(__dirname, '../../src/styles/themes.css'), 'utf8');
const PROPERTIES = ['primary', 'primary-hover', 'primary-contrast', 'accent', 'bg', 'surface', 'text', 'muted', 'border', 'error', 'warning', 'success', 'focus'];

function themeVars(theme: string): Record<string, string> {
  const block = new RegExp(`:root\\[data-theme='${theme}'\\][^{]*\\{([^}]*)\\}`).exec(css)?.[1] ?? '';
  return Object.fromEntries([...block.matchAll(/--fd-([a-z-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1] ?? '', (m[2] ?? '').toLowerCase()]));
}

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

/** [foreground, background, minimum ratio] as in docs/design.md. */
const PAIRS: Array<[string, string, number]> = [
  ['primary', 'surface', 4.5], ['primary', 'bg', 4.5], ['primary-contrast', 'primary', 4.5], ['primary-contrast', 'primary-hover', 4.5],
  ['text', 'bg', 4.5], ['text', 'surface', 4.5], ['muted', 'bg', 4.5], ['muted', 'surface', 4.5],
  ['error', 'surface', 4.5], ['warning', 'surface', 4.5], ['success', 'surface', 4.5],
  ['border', 'surface', 3], ['focus', 'bg', 3], ['focus', 'surface', 3],
];

describe('themes', () => {
  it('are the seven of SPEC §3, theme-ninja-blue first (the default)', () => {
    expect(THEMES).toEqual(['theme-ninja-blue', 'theme-one', 'theme-two', 'theme-three', 'theme-four', 'theme-five', 'theme-six']);
    expect(isTheme('theme-four')).toBe(true);
    expect(isTheme('theme-seven')).toBe(false);
    expect(isTheme('theme-four"><script>')).toBe(false);
  });

  it.each(THEMES)('%s sets every colour and meets AA contrast', (theme) => {
    const vars = themeVars(theme);
    expect(Object.keys(vars).sort()).toEqual([...PROPERTIES].sort());
    const failing = PAIRS.filter(([fg, bg, min]) => contrast(vars[fg] ?? '#ffffff', vars[bg] ?? '#ffffff') < min).map(([fg, bg, min]) => `${fg} on ${bg} < ${min}`);
    expect(failing).toEqual([]);
  });

  it('the contrast formula is WCAG’s', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeGreaterThan(4.5);
    expect(contrast('#777777', '#ffffff')).toBeLessThan(4.5);
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
