import type { Page } from '@playwright/test';

/**
 * What a state looks like, for comparing themes without a picture: the computed styles that paint it —
 * colours, borders, shadows, fonts, radii of every visible element and of its ::before and ::after —
 * which differ exactly when a theme changes how something visible is drawn. `npm test` compares these
 * (tests/e2e/a11y.spec.ts, on its walk over every state); `npm run screenshots` compares the pictures.
 */
const PAINT = [
  'color',
  'background-color',
  'background-image',
  'border-color',
  'outline-color',
  'box-shadow',
  'text-shadow',
  'fill',
  'stroke',
  'font-family',
  'border-radius',
  'opacity',
  'filter',
];

export async function paintedStyles(page: Page): Promise<string> {
  return page.evaluate((properties) => {
    const out: string[] = [];
    const paint = (style: CSSStyleDeclaration) => properties.map((p) => style.getPropertyValue(p)).join('|');
    for (const el of [document.documentElement, ...Array.from(document.body.querySelectorAll('*'))]) {
      if (!(el.checkVisibility?.() ?? true)) continue;
      out.push(paint(getComputedStyle(el)));
      for (const pseudo of ['::before', '::after']) {
        const style = getComputedStyle(el, pseudo);
        if (style.content !== 'none') out.push(`${pseudo} ${paint(style)}`);
      }
    }
    return out.join('\n');
  }, PAINT);
}
