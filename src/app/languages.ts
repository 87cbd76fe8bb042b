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
