import { language } from '../generated/lists';
export { DEFAULT_LANGUAGE } from '../platform/constants/limits';

/**
 * The UI languages of the product (SPEC §3), in the lower-case tags the app uses: the list is
 * schemas/defs/language.json, which the register screen's language field and the server's
 * registration check read too; which of them have translations is a separate matter (locales/).
 */
export const SUPPORTED_LANGUAGES = language;

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
