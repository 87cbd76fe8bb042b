import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { translator, type TextTree, type TFunction } from '../../catalogue/language/texts';

/**
 * The app's texts at run time: a lookup in the build's compiled locales (src/generated/locales), no
 * parser. The build has already turned every ICU text into plain keys (catalogue/language/icu.ts):
 * a text with `{{name}}` and `{{name, number}}` placeholders, and a plural as `key_zero`,
 * `key_one` … beside `key` for the `other` case. So `t` does what i18next does with those texts —
 * the same keys, the same fallback language, the same plural choice (Intl.PluralRules, `_zero`
 * first for a count of 0) and number formatting (Intl.NumberFormat) — and
 * tests/i18n/translator.test.ts checks it against i18next on every text of every locale (the
 * translator itself is catalogue/language/texts.ts: the server's answers to plain forms use it too).
 * i18next (with react-i18next, about 15 kB brotli) stays with the studio, which edits texts.
 *
 * The hook keeps react-i18next's shape (`const { t, i18n } = useTranslation()`).
 */
export type { TextTree, TFunction };

export interface Texts {
  /** The language shown (our lower-case tag, e.g. 'de-de'). */
  language: string;
  /** Same as language: every language the app offers has its own texts. */
  resolvedLanguage: string;
  t: TFunction;
}

export function createTexts(bundles: Readonly<Record<string, TextTree | undefined>>, lang: string, fallback: string): Texts {
  return { language: lang, resolvedLanguage: lang, t: translator(bundles, lang, fallback) };
}

/** The page's texts (src/app/i18n.ts sets them); a provider overrides them for a part of a page (the studio's preview). */
let current: Texts = { language: '', resolvedLanguage: '', t: (key) => key };
const listeners = new Set<() => void>();

export function setTexts(texts: Texts): void {
  current = texts;
  listeners.forEach((listener) => listener());
}

export function currentTexts(): Texts {
  return current;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => current;

const TextsContext = createContext<Texts | null>(null);
export const TextsProvider = TextsContext.Provider;

/** The texts in force here, re-rendering when the language changes. */
export function useTranslation(): { t: TFunction; i18n: Texts } {
  const provided = useContext(TextsContext);
  const page = useSyncExternalStore(subscribe, snapshot, snapshot);
  const texts = provided ?? page;
  return { t: texts.t, i18n: texts };
}

/** useTranslation for class components (render prop). */
export function Translation({ children }: { children(t: TFunction): ReactNode }) {
  return <>{children(useTranslation().t)}</>;
}
