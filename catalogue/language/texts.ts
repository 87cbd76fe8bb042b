/**
 * The catalogue's texts at run time: a lookup in the build's compiled locales (src/generated/locales,
 * ICU already compiled into plain keys by ./icu.ts), as i18next reads them — the same keys, fallback
 * language, plural choice and number formatting (tests/i18n/translator.test.ts). The app
 * (src/lib/i18n.tsx) and the server's answers to plain forms (server/spa/forms.ts) translate with it.
 */
export type TextTree = { [key: string]: unknown };
export type TFunction = (key: string, values?: Record<string, unknown>) => string;

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
