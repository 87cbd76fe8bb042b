import { parse, TYPE, type MessageFormatElement, type PluralElement } from '@formatjs/icu-messageformat-parser';

/**
 * The two kinds of text in locales/ and what the build makes of them (docs/translating.md):
 *
 * - a plain text, i18next's own syntax: "Sign in with {{idpName}}";
 * - an ICU MessageFormat text, for a text that holds a count:
 *   "{count, plural, one {You will be taken there in # second.} other {… # seconds.}}".
 *   A text is ICU as soon as it has a brace that is not part of a {{placeholder}}.
 *
 * The browser never parses ICU: the build compiles each ICU text into i18next's own plural keys
 * (`key_one`, `key_few` …, with the `other` case as the plain `key`, which i18next uses for any
 * category the language has no own text for), and `{name}` into `{{name}}`, `#` into
 * `{{count, number}}`. i18next already picks the plural form with the browser's Intl.PluralRules,
 * so every CLDR category (Arabic: zero, one, two, few, many, other) works with no formatter
 * shipped: the first load does not grow. The price is a subset of ICU, checked by
 * `icuProblems`: one plural per text, its number named `count` (what `t(key, { count })`
 * passes), categories and `=0`, simple `{name}` and `{name, number}` arguments.
 */

export type Tree = { [key: string]: string | Tree };

/** The CLDR plural categories, in CLDR's order. */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The name of the plural argument: i18next passes a plural's number as `count`. */
export const COUNT = 'count';

/** True when the text is ICU MessageFormat: a brace that is not part of an i18next {{placeholder}}. */
export function isIcu(text: string): boolean {
  return /[{}]/.test(text.replace(/\{\{[^{}]*\}\}/g, ''));
}

/** Why formatjs refused a text, in words a translator can act on. */
const SYNTAX_REASONS: Record<string, string> = {
  EXPECT_ARGUMENT_CLOSING_BRACE: 'an argument is not closed with "}"',
  EMPTY_ARGUMENT: 'an argument "{}" has no name',
  MALFORMED_ARGUMENT: 'a "{" must start an argument such as {name} or {count, plural, …} (a literal brace is written \'{\')',
  EXPECT_ARGUMENT_TYPE: 'a type must follow the comma (plural, select, number …)',
  INVALID_ARGUMENT_TYPE: 'unknown argument type (plural, selectordinal, select, number, date or time)',
  EXPECT_ARGUMENT_STYLE: 'a style must follow the second comma',
  EXPECT_SELECT_ARGUMENT_OPTIONS: 'a select needs its cases',
  EXPECT_PLURAL_ARGUMENT_OFFSET_VALUE: 'offset: needs a number',
  INVALID_PLURAL_ARGUMENT_OFFSET_VALUE: 'offset: needs a whole number',
  EXPECT_SELECT_ARGUMENT_SELECTOR: 'a select case must start with its name',
  EXPECT_PLURAL_ARGUMENT_SELECTOR: 'a plural case must start with a category (zero, one, two, few, many, other) or =N',
  EXPECT_SELECT_ARGUMENT_SELECTOR_FRAGMENT: 'a select case needs its text in braces: name {text}',
  EXPECT_PLURAL_ARGUMENT_SELECTOR_FRAGMENT: 'a plural case needs its text in braces: one {text}',
  INVALID_PLURAL_ARGUMENT_SELECTOR: 'a plural case must be a category (zero, one, two, few, many, other) or =N',
  DUPLICATE_PLURAL_ARGUMENT_SELECTOR: 'a plural case appears twice',
  DUPLICATE_SELECT_ARGUMENT_SELECTOR: 'a select case appears twice',
  MISSING_OTHER_CLAUSE: 'the plural or select has no "other" case, or a brace is not closed',
  UNCLOSED_QUOTE_IN_ARGUMENT_STYLE: 'a quote in the argument style is not closed',
};

export interface ParsedText {
  /** The ICU elements; undefined for a plain text or a syntax error. */
  ast?: MessageFormatElement[];
  /** The syntax error, with its column (1-based) in the text. */
  error?: string;
}

/** Parses an ICU text (tags are literal text: our texts hold no markup). */
export function parseIcu(text: string): ParsedText {
  try {
    return { ast: parse(text, { ignoreTag: true, requiresOtherClause: true, shouldParseSkeletons: false }) };
  } catch (error) {
    const e = error as { message?: string; location?: { start?: { offset?: number } } };
    const kind = e.message ?? 'syntax error';
    const at = e.location?.start?.offset;
    return { error: `ICU syntax: ${SYNTAX_REASONS[kind] ?? kind.toLowerCase().replace(/_/g, ' ')}${at !== undefined ? ` (at character ${at + 1})` : ''}` };
  }
}

/** Every argument an ICU message names (simple, number, plural and select, nested ones too). */
function icuArguments(elements: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if ('value' in el && typeof el.value === 'string') out.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) icuArguments(option.value, out);
    if (el.type === TYPE.tag) icuArguments(el.children, out);
  }
  return out;
}

/** The {{placeholders}} of a plain text, by name ("{{count, number}}" -> count). */
function plainArguments(text: string): Set<string> {
  return new Set([...text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)].map((m) => m[1] ?? ''));
}

/** The values a text takes, by name, sorted; undefined when an ICU text does not parse. */
export function textArguments(text: string): string[] | undefined {
  if (!isIcu(text)) return [...plainArguments(text)].sort();
  const { ast } = parseIcu(text);
  return ast ? [...icuArguments(ast)].sort() : undefined;
}

/** The plural categories of a language by its CLDR rules ('ar' -> zero one two few many other). */
export function pluralCategoriesOf(lang: string): string[] {
  let categories: string[];
  try {
    categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories as string[];
  } catch {
    categories = ['one', 'other'];
  }
  return PLURAL_CATEGORIES.filter((c) => categories.includes(c));
}

/** The ICU texts' plural elements, wherever they are. */
function plurals(elements: MessageFormatElement[], depth = 0, out: Array<{ el: PluralElement; depth: number }> = []) {
  for (const el of elements) {
    if (el.type === TYPE.plural) out.push({ el, depth });
    if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) plurals(option.value, depth + 1, out);
  }
  return out;
}

/** What the build cannot compile, element by element (see the module comment). */
function unsupported(elements: MessageFormatElement[], inPlural: boolean, out: Set<string>): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.select) out.add('select is not supported yet: write one text per case under its own key');
    else if (el.type === TYPE.plural && el.pluralType === 'ordinal') out.add('selectordinal is not supported yet');
    else if (el.type === TYPE.date || el.type === TYPE.time) out.add('date and time arguments are not supported: the app passes them formatted');
    else if (el.type === TYPE.number && el.style) out.add(`{${el.value}, number, …}: a number style is not supported (write {${el.value}, number})`);
    else if (el.type === TYPE.pound && !inPlural) out.add('# stands for the count and belongs inside a plural case');
    else if (el.type === TYPE.literal && /\{\{/.test(el.value)) out.add('a literal "{{" would read as a placeholder');
    if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) unsupported(option.value, true, out);
  }
  return out;
}

/**
 * What is wrong with a text for a language: ICU syntax, what the build cannot compile, and the
 * plural cases against the language's categories (each category it has, none it has not; `=0`
 * stands for zero). A plain text has no problems here. Each entry is one reason.
 */
export function icuProblems(text: string, lang: string): string[] {
  if (!isIcu(text)) return [];
  const { ast, error } = parseIcu(text);
  if (!ast) return [error ?? 'ICU syntax error'];
  const problems = [...unsupported(ast, false, new Set())];
  const found = plurals(ast);
  if (found.length > 1) problems.push('only one plural per text (split the text in two)');
  for (const { el, depth } of found) {
    if (depth > 0) problems.push('a plural inside another plural or select is not supported');
    if (el.value !== COUNT) problems.push(`the plural's number must be called {${COUNT}, plural, …} (the app passes it as ${COUNT}), not {${el.value}, …}`);
    if (el.offset) problems.push('offset: is not supported');
    const categories = pluralCategoriesOf(lang);
    const cases = Object.keys(el.options);
    for (const key of cases) {
      if (key === 'other' || key === '=0') continue;
      if (key.startsWith('=')) problems.push(`the exact case ${key} is not supported (only =0): use the category instead`);
      else if (!(PLURAL_CATEGORIES as readonly string[]).includes(key)) problems.push(`"${key}" is not a plural category (zero, one, two, few, many, other)`);
      else if (!categories.includes(key)) problems.push(`${lang} has no plural form "${key}" (its forms: ${categories.join(', ')})`);
    }
    const missing = categories.filter((c) => !cases.includes(c) && !(c === 'zero' && cases.includes('=0')));
    if (missing.length > 0) problems.push(`the plural lacks the form(s) ${missing.join(', ')} of ${lang} (its forms: ${categories.join(', ')})`);
  }
  return problems;
}

/** i18next text of ICU elements: {name} -> {{name}}, {n, number} -> {{n, number}}, # -> {{count, number}}. */
function toI18next(elements: MessageFormatElement[], pound?: string): string {
  return elements
    .map((el) => {
      switch (el.type) {
        case TYPE.literal:
          return el.value;
        case TYPE.argument:
          return `{{${el.value}}}`;
        case TYPE.number:
          return `{{${el.value}, number}}`;
        case TYPE.pound:
          return pound ? `{{${pound}, number}}` : '#';
        default:
          return '';
      }
    })
    .join('');
}

/**
 * One text as i18next keys: a plain text stays as it is ({ '': text }); an ICU text becomes its
 * plural forms by suffix ('_one', '_zero' for `=0` …) with the other case under '' (the key
 * itself). Call it only on texts without icuProblems.
 */
export function compileText(text: string): Record<string, string> {
  if (!isIcu(text)) return { '': text };
  const { ast } = parseIcu(text);
  if (!ast) return { '': text };
  const index = ast.findIndex((el) => el.type === TYPE.plural);
  const plural = ast[index];
  if (!plural || plural.type !== TYPE.plural) return { '': toI18next(ast) };
  const before = ast.slice(0, index);
  const after = ast.slice(index + 1);
  const out: Record<string, string> = {};
  for (const [key, option] of Object.entries(plural.options)) {
    const suffix = key === 'other' ? '' : key === '=0' ? '_zero' : `_${key}`;
    // =0 wins over a zero category (ICU: an exact match first).
    if (suffix === '_zero' && key !== '=0' && '=0' in plural.options) continue;
    out[suffix] = toI18next([...before, ...option.value, ...after], plural.value);
  }
  return out;
}

/** A locale tree with every ICU text compiled into i18next keys (compileText), for the browser. */
export function compileLocale(tree: Tree): Tree {
  const out: Tree = {};
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value !== 'string') out[key] = compileLocale(value);
    else for (const [suffix, text] of Object.entries(compileText(value))) out[`${key}${suffix}`] = text;
  }
  return out;
}

/** 'a.countdown_one' -> 'a.countdown'; other keys unchanged (i18next's own plural keys, still read). */
export function pluralBase(key: string): string {
  return key.replace(PLURAL_SUFFIX, '');
}
