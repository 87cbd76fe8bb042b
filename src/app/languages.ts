/**
 * The UI languages of the product (SPEC §3), in the lower-case tags the app uses. The register
 * screen's language options and the server's registration check use this list; which of them
 * have translations is a separate matter (locales/).
 */
export const SUPPORTED_LANGUAGES = [
  'en-us', 'en-gb', 'en-au', 'de-de', 'fr-fr', 'fr-ca', 'es-es', 'it-it',
  'pt-br', 'pl-pl', 'nl-nl', 'nn-nn', 'sv-sv', 'ru-ru', 'da-da', 'ja-jp',
] as const;

export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

export function isSupportedLanguage(value: unknown): value is SupportedLanguage {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/**
 * Our tags (SPEC §3) as valid BCP 47 for the lang attribute, so screen readers pick the right
 * voice: nn-nn, sv-sv and da-da are not country codes of those languages. The server's static page
 * (server/spa-shell.ts) uses it too.
 */
const HTML_LANG: Record<string, string> = { 'nn-nn': 'nn-NO', 'sv-sv': 'sv-SE', 'da-da': 'da-DK' };
export function htmlLang(lang: string): string {
  return HTML_LANG[lang] ?? lang.replace(/-([a-z]{2})$/, (_, region: string) => `-${region.toUpperCase()}`);
}
