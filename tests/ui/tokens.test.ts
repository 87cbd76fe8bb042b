import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEMES } from '../../src/app/themes';

/**
 * The colour tokens of src/styles/themes.css, without a browser: for every theme in light and in
 * dark, the custom properties the cascade gives <html data-theme="…"> (selector specificity and
 * order, the dark block only under prefers-color-scheme: dark, color-mix() worked out), then every
 * pair of docs/design.md against its WCAG 2.2 AA minimum. axe checks the rendered pages too
 * (tests/e2e/a11y.spec.ts; all themes in `npm run screenshots`).
 */
const css = readFileSync(join(__dirname, '../../src/styles/themes.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
type Scheme = 'light' | 'dark';
interface Rule {
  selectors: string[];
  declarations: Map<string, string>;
  scheme: Scheme | 'both';
  order: number;
}

/** The rules of the file: top level (both schemes) and inside @media (prefers-color-scheme: dark). */
function parse(text: string): Rule[] {
  const rules: Rule[] = [];
  const walk = (source: string, scheme: Scheme | 'both') => {
    let i = 0;
    while (i < source.length) {
      const open = source.indexOf('{', i);
      if (open === -1) break;
      const prelude = source.slice(i, open).trim();
      let depth = 1;
      let j = open + 1;
      for (; j < source.length && depth > 0; j += 1) depth += source[j] === '{' ? 1 : source[j] === '}' ? -1 : 0;
      const body = source.slice(open + 1, j - 1);
      if (prelude.startsWith('@media')) {
        if (!/^@media \(prefers-color-scheme: dark\)$/.test(prelude)) throw new Error(`themes.css: unexpected ${prelude}`);
        walk(body, 'dark');
      } else {
        const declarations = new Map([...body.matchAll(/(--fd-[a-z0-9-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1] ?? '', (m[2] ?? '').trim()]));
        rules.push({ selectors: prelude.split(',').map((s) => s.trim()), declarations, scheme, order: rules.length });
      }
      i = j;
    }
  };
  walk(text, 'both');
  return rules;
}

/** Specificity of a selector for <html data-theme="theme">, or -1 when it does not match. */
function specificity(selector: string, theme: string): number {
  if (selector === ':root') return 1;
  if (selector === ':root[data-theme]') return 2;
  const named = /^:root\[data-theme='([a-z-]+)'\]$/.exec(selector);
  if (named) return named[1] === theme ? 2 : -1;
  throw new Error(`themes.css: unexpected selector ${selector}`);
}

const RULES = parse(css);

/** What the cascade gives each custom property of <html data-theme="theme"> in a scheme. */
function computed(theme: string, scheme: Scheme): Record<string, string> {
  const winners = new Map<string, { value: string; rank: [number, number] }>();
  for (const rule of RULES) {
    if (rule.scheme !== 'both' && rule.scheme !== scheme) continue;
    const spec = Math.max(...rule.selectors.map((s) => specificity(s, theme)));
    if (spec < 0) continue;
    for (const [name, value] of rule.declarations) {
      const held = winners.get(name);
      if (!held || spec > held.rank[0] || (spec === held.rank[0] && rule.order > held.rank[1])) winners.set(name, { value, rank: [spec, rule.order] });
    }
  }
  const raw = Object.fromEntries([...winners].map(([name, { value }]) => [name.slice('--fd-'.length), value]));
  const resolve = (value: string, depth = 0): string => {
    if (depth > 5) throw new Error(`themes.css: a cycle at ${value}`);
    if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
    const reference = /^var\(--fd-([a-z0-9-]+)\)$/.exec(value);
    if (reference) return resolve(raw[reference[1] ?? ''] ?? '?', depth + 1);
    const mixed = /^color-mix\(in srgb,\s*(var\([^)]+\))\s+(\d+)%,\s*(var\([^)]+\))\)$/.exec(value);
    if (mixed) return mix(resolve(mixed[1] ?? '', depth + 1), resolve(mixed[3] ?? '', depth + 1), Number(mixed[2]) / 100);
    throw new Error(`themes.css: cannot work out "${value}"`);
  };
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, resolve(value)]));
}

const channels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
/** CSS color-mix(in srgb, a p, b): each sRGB channel interpolated. */
export function mix(a: string, b: string, p: number): string {
  const [x, y] = [channels(a), channels(b)];
  return `#${x
    .map((c, i) =>
      Math.round(c * p + (y[i] ?? 0) * (1 - p))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
export function contrast(a: string, b: string): number {
  const [hi = 0, lo = 0] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Every colour token the components use (docs/design.md). */
const TOKENS = [
  'primary',
  'primary-hover',
  'primary-contrast',
  'primary-subtle',
  'accent',
  'bg',
  'surface',
  'surface-2',
  'text',
  'muted',
  'border',
  'focus',
  'error',
  'error-subtle',
  'warning',
  'warning-subtle',
  'success',
  'success-subtle',
];
/** [foreground, background, minimum]: text 4.5:1 (1.4.3), borders, radios, checkboxes and the focus ring 3:1 (1.4.11). */
const PAIRS: Array<[string, string, number]> = [
  ['text', 'bg', 4.5],
  ['text', 'surface', 4.5],
  ['text', 'surface-2', 4.5],
  ['text', 'primary-subtle', 4.5],
  ['text', 'error-subtle', 4.5],
  ['text', 'warning-subtle', 4.5],
  ['text', 'success-subtle', 4.5],
  ['muted', 'bg', 4.5],
  ['muted', 'surface', 4.5],
  ['muted', 'surface-2', 4.5],
  ['muted', 'primary-subtle', 4.5],
  ['primary', 'bg', 4.5],
  ['primary', 'surface', 4.5],
  ['primary', 'surface-2', 4.5],
  ['primary', 'primary-subtle', 4.5],
  ['primary-contrast', 'primary', 4.5],
  ['primary-contrast', 'primary-hover', 4.5],
  ['error', 'surface', 4.5],
  ['error', 'bg', 4.5],
  ['error', 'error-subtle', 4.5],
  ['warning', 'surface', 4.5],
  ['warning', 'warning-subtle', 4.5],
  ['success', 'surface', 4.5],
  ['success', 'success-subtle', 4.5],
  ['border', 'surface', 3],
  ['border', 'bg', 3],
  ['focus', 'bg', 3],
  ['focus', 'surface', 3],
];

describe('colour tokens (src/styles/themes.css)', () => {
  const cases = THEMES.flatMap((theme) => (['light', 'dark'] as const).map((scheme) => [theme, scheme] as const));

  it.each(cases)('%s in %s sets every token and meets WCAG 2.2 AA contrast', (theme, scheme) => {
    const colours = computed(theme, scheme);
    expect(TOKENS.filter((token) => !colours[token])).toEqual([]);
    const failing = PAIRS.filter(([fg, bg, min]) => contrast(colours[fg] ?? '', colours[bg] ?? '') < min).map(
      ([fg, bg, min]) => `${fg} ${colours[fg]} on ${bg} ${colours[bg]}: ${contrast(colours[fg] ?? '', colours[bg] ?? '').toFixed(2)} < ${min}`,
    );
    expect(failing).toEqual([]);
  });

  it('each theme has its own brand colours in light and in dark', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const primaries = THEMES.map((theme) => computed(theme, scheme).primary);
      expect(new Set(primaries).size, scheme).toBe(THEMES.length);
    }
    expect(computed('theme-four', 'light').primary).toBe('#00706a');
    expect(computed('theme-four', 'dark').primary).not.toBe('#00706a');
  });

  it('the model follows the cascade: no light theme colour survives into dark', () => {
    // theme-three's errors are a deeper red than its brand colour in light; in dark they must be light.
    expect(computed('theme-three', 'light').error).not.toBe(computed('theme-ninja-blue', 'light').error);
    expect(luminance(computed('theme-three', 'dark').error ?? '')).toBeGreaterThan(0.4);
    expect(luminance(computed('theme-ninja-blue', 'dark').bg ?? '')).toBeLessThan(0.05);
  });

  it('the contrast formula is WCAG’s, and color-mix is sRGB interpolation', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeGreaterThan(4.5);
    expect(contrast('#777777', '#ffffff')).toBeLessThan(4.5);
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(mix('#ff0000', '#0000ff', 0.25)).toBe('#4000bf');
  });
});
