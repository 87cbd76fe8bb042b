import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';

/**
 * The app's texts at run time: a lookup in the build's compiled locales (src/generated/locales), no
 * parser. The build has already turned every ICU text into plain keys (catalogue/language/icu.ts):
 * a text with `{{name}}` and `{{name, number}}` placeholders, and a plural as `key_zero`,
 * `key_one` … beside `key` for the `other` case. So `t` does what i18next does with those texts —
 * the same keys, the same fallback language, the same plural choice (Intl.PluralRules, `_zero`
 * first for a count of 0) and number formatting (Intl.NumberFormat) — and
 * tests/i18n/translator.test.ts checks it against i18next on every text of every locale.
 * i18next (with react-i18next, about 15 kB brotli) stays with the studio, which edits texts.
 *
 * The hook keeps react-i18next's shape (`const { t, i18n } = useTranslation()`).
 */
export type TextTree = { [key: string]: unknown };
export type TFunction = (key: string, values?: Record<string, unknown>) => string;

export interface Texts {
  /** The language shown (our lower-case tag, e.g. 'de-de'). */
  language: string;
  /** Same as language: every language the app offers has its own texts. */
  resolvedLanguage: string;
  t: TFunction;
}

function lookup(tree: unknown, key: string): string | undefined {
  let node = tree;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

/** A translate function over bundles by language: `lang` first, then `fallback`; an unknown key is the key itself. */
export function translator(bundles: Readonly<Record<string, TextTree | undefined>>, lang: string, fallback: string): TFunction {
  const languages = lang === fallback ? [lang] : [lang, fallback];
  const rules = new Map<string, Intl.PluralRules>();
  const numbers = new Map<string, Intl.NumberFormat>();
  const plural = (code: string, count: number) => {
    let rule = rules.get(code);
    if (!rule) rules.set(code, (rule = new Intl.PluralRules(code)));
    return rule.select(count);
  };
  const formatNumber = (code: string, value: unknown) => {
    let format = numbers.get(code);
    if (!format) numbers.set(code, (format = new Intl.NumberFormat(code)));
    return format.format(value as number);
  };
  return (key, values = {}) => {
    const count = values.count;
    const counted = count !== undefined && typeof count !== 'string';
    for (const code of languages) {
      // The most specific key first: key_zero (for 0), key_<category>, then key itself.
      const keys = counted ? [...(count === 0 ? [`${key}_zero`] : []), `${key}_${plural(code, Number(count))}`, key] : [key];
      for (const candidate of keys) {
        const text = lookup(bundles[code], candidate);
        if (text === undefined) continue;
        return text.replace(PLACEHOLDER, (_all, inner: string) => {
          const [name = '', format] = inner.split(',').map((part) => part.trim());
          const value = values[name];
          if (value === undefined || value === null) return '';
          return format === 'number' ? formatNumber(code, value) : String(value);
        });
      }
    }
    return key;
  };
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
