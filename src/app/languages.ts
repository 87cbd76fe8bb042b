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

export { htmlLang, textDirection } from '../lib/language-tags';

/**
 * The cookie that keeps the visitor's explicit language choice (the switcher writes it, src/app/i18n.ts):
 * the server reads it before Accept-Language, so its page is already in that language (the build hands
 * the name to server/spa/html.ts in .vite/pages.json).
 */
export const LANGUAGE_COOKIE = 'fd-language';
