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

/** Languages written right to left, for engines without Intl's text info (as i18next decides). */
const RTL_LANGUAGES = ['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'yi', 'ji', 'dv', 'ug', 'ckb', 'sd', 'syr'];

/**
 * The direction a language is written in, for the page's dir attribute: Intl's text info where the
 * engine has it, else the list above; a tag in Latin script is left to right ('ar' and 'he' are 'rtl').
 */
export function textDirection(lang: string): 'ltr' | 'rtl' {
  try {
    const locale = new Intl.Locale(lang) as Intl.Locale & { getTextInfo?(): { direction?: string }; textInfo?: { direction?: string } };
    const direction = (locale.getTextInfo?.() ?? locale.textInfo)?.direction;
    if (direction === 'rtl' || direction === 'ltr') return direction;
  } catch {
    /* not a tag Intl knows: the list decides */
  }
  const tag = lang.toLowerCase();
  if (tag.includes('-latn')) return 'ltr';
  return RTL_LANGUAGES.includes(tag.split('-')[0] ?? '') || tag.includes('-arab') ? 'rtl' : 'ltr';
}
