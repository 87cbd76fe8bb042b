import { compileLocale, type Tree } from '../catalogue/language/icu';
import { PSEUDO_LOCALE, pseudoLocale } from '../catalogue/language/pseudo';
import { DEFAULT_LANGUAGE } from '../src/app/studio-entry';

/** The languages the preview offers: the catalogue's, and the pseudo-locale (accented, 40 % longer: what is not translated or does not fit). */
export function previewLanguages(languages: readonly string[]): string[] {
  return [...languages, PSEUDO_LOCALE];
}

/** The language whose files the text editors show: the pseudo-locale is made from en-us. */
export function textsLanguage(lang: string): string {
  return lang === PSEUDO_LOCALE ? DEFAULT_LANGUAGE : lang;
}

/**
 * i18next resources for the preview, as the build makes them for the app: ICU texts compiled into
 * i18next's plural keys (catalogue/language/icu.ts), and the pseudo-locale generated from en-us.
 */
export function previewResources(locales: Record<string, Record<string, unknown>>): Record<string, { translation: Tree }> {
  const out: Record<string, { translation: Tree }> = {};
  for (const [lang, tree] of Object.entries(locales)) out[lang] = { translation: compileLocale(tree as Tree) };
  const english = out[DEFAULT_LANGUAGE];
  if (english) out[PSEUDO_LOCALE] = { translation: pseudoLocale(english.translation) };
  return out;
}
