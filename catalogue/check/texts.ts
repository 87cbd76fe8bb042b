import { icuProblems, isIcu, pluralBase, textArguments } from '../language/icu';
import { escapePointer } from '../language/json-pointer';

/**
 * The check of every text of every language on its own (catalogue/language/icu.ts has the rules):
 * its ICU syntax and plural forms for that language, and the placeholders it uses against the
 * en-us text of the same key — a translation that drops {{email}} or invents {{name}} would show
 * a hole or a raw brace to a visitor. Each problem names the file, the JSON pointer of the text
 * and the reason.
 */
export interface TextProblem {
  file: string;
  pointer: string;
  message: string;
}

type Locale = Record<string, unknown>;

function at(locale: Locale | undefined, path: string[]): unknown {
  return path.reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Locale)[part] : undefined), locale);
}

/** The en-us text a key of another language translates; for an i18next plural form ('_few'), its group's. */
function englishFor(english: Locale | undefined, path: string[]): { text: string; pluralForm: boolean } | undefined {
  const direct = at(english, path);
  if (typeof direct === 'string') return { text: direct, pluralForm: false };
  const last = path[path.length - 1] ?? '';
  const base = pluralBase(last);
  if (base === last) return undefined;
  const parent = path.slice(0, -1);
  const group = at(english, [...parent, base]) ?? at(english, [...parent, `${base}_other`]);
  return typeof group === 'string' ? { text: group, pluralForm: true } : undefined;
}

const shown = (name: string, icu: boolean) => (icu ? `{${name}}` : `{{${name}}}`);

/** The problems of one text of a language (empty when it is fine); `english`: the source text it translates (none for the source language itself). */
export function textProblemsOf(text: string, lang: string, english: { text: string; pluralForm: boolean } | undefined): string[] {
  const problems = icuProblems(text, lang);
  if (english === undefined) return problems;
  const own = textArguments(text);
  const wanted = textArguments(english.text);
  if (!own || !wanted) return problems;
  // One i18next plural form may leave the number out ("a second"); an ICU plural always names count.
  const missing = wanted.filter((name) => !own.includes(name) && !(name === 'count' && english.pluralForm));
  const extra = own.filter((name) => !wanted.includes(name));
  const icu = isIcu(text);
  if (missing.length > 0) problems.push(`the translation drops ${missing.map((n) => shown(n, icu)).join(', ')} of the en-us text`);
  if (extra.length > 0)
    problems.push(
      `the translation uses ${extra.map((n) => shown(n, icu)).join(', ')}, which the en-us text does not have (it has: ${wanted.join(', ') || 'none'})`,
    );
  return problems;
}

/**
 * Every text of every language. `locales` is the check's merged tree per language (file name ->
 * its texts); `broken` lists '<lang>/<file>' that did not load (reported once elsewhere).
 */
export function checkTexts(locales: Record<string, Locale>, defaultLanguage: string, localesDir = 'locales', broken: readonly string[] = []): TextProblem[] {
  const english = locales[defaultLanguage];
  const out: TextProblem[] = [];
  for (const [lang, locale] of Object.entries(locales)) {
    for (const [file, tree] of Object.entries(locale)) {
      if (broken.includes(`${lang}/${file}`)) continue;
      const visit = (node: unknown, path: string[]) => {
        if (typeof node === 'string') {
          for (const message of textProblemsOf(node, lang, lang === defaultLanguage ? undefined : englishFor(english, [file, ...path])))
            out.push({ file: `${localesDir}/${lang}/${file}.json`, pointer: `/${path.map(escapePointer).join('/')}`, message });
        } else if (node !== null && typeof node === 'object') for (const [key, value] of Object.entries(node)) visit(value, [...path, key]);
      };
      visit(tree, []);
    }
  }
  return out;
}
