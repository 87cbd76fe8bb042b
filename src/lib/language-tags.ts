import i18next from 'i18next';

/**
 * What the markup says about a language, from our tags (SPEC §3: 'en-us', 'nn-nn', 'ar') — shared by
 * the app (src/app/i18n.ts), the build's static pages (scripts/vite-static.ts) and the translators'
 * XLIFF (scripts/i18n): the tags themselves stay on the wire, in URLs and in storage.
 */

/**
 * A tag as valid BCP 47 for the lang attribute (and XLIFF's srcLang/trgLang), so screen readers
 * pick the right voice: nn-nn, sv-sv and da-da are not country codes of those languages; ar and he
 * are languages without a region.
 */
const HTML_LANG: Record<string, string> = { 'nn-nn': 'nn-NO', 'sv-sv': 'sv-SE', 'da-da': 'da-DK' };
export function htmlLang(lang: string): string {
  return HTML_LANG[lang] ?? lang.replace(/-([a-z]{2})$/, (_, region: string) => `-${region.toUpperCase()}`);
}

/**
 * The direction a language is written in, for the page's dir attribute: i18next's own answer
 * (Intl's text info where the browser has it, else its list of right-to-left languages), so ar and
 * he are 'rtl' with no code of ours in the first load.
 */
export function textDirection(lang: string): 'ltr' | 'rtl' {
  return i18next.dir(lang);
}
