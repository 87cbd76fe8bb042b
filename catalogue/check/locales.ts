import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { escapePointer } from '../language/json-pointer';
import type { Mapping, TextRef } from '../language/types';
import { closest, flattenKeys } from './suggest';
import type { PendingTranslation, Problem, Project, Report } from './types';
import { textArguments } from '../language/icu';

export type { PendingTranslation };

/**
 * Texts: every key a screen names exists in the default language (schemas/defs/language.json
 * "default", what i18next falls back to); other languages without it are pending translations,
 * listed but never blocking; interpolation values name placeholders the text has.
 */
type Locales = Project['locales'];
const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;

/** What the text checks need of the project. */
export type TextProject = Pick<Project, 'locales' | 'brokenLocales' | 'defaultLanguage'>;

/**
 * True when the merged locale has a string at the dotted key, or plural forms of it (i18next picks
 * `key_one`, `key_few`, ... by a `count` value; every language has `key_other`).
 */
export function hasKey(locale: Record<string, unknown>, key: string): boolean {
  const parts = key.split('.');
  const last = parts.pop() ?? '';
  let node: unknown = locale;
  for (const part of parts) {
    if (node === null || typeof node !== 'object' || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  if (node === null || typeof node !== 'object') return false;
  const parent = node as Record<string, unknown>;
  return typeof parent[last] === 'string' || typeof parent[`${last}_other`] === 'string';
}

/** A language with fewer plural forms than the default (ja-jp: only _other) still has the text. */
function hasAnyPlural(locale: Record<string, unknown>, key: string): boolean {
  return PLURAL_FORMS.some((form) => hasKey(locale, `${key}_${form}`));
}

const keyCache = new WeakMap<object, Set<string>>();
/** All keys of one language, for 'did you mean' on a misspelt key. */
function localeKeys(locales: Locales, lang: string): Set<string> {
  const locale = locales[lang] ?? {};
  let keys = keyCache.get(locale);
  if (!keys) {
    keys = new Set(flattenKeys(locale));
    keyCache.set(locale, keys);
  }
  return keys;
}

/** A key exists in the default language (one problem per key, naming the languages that lack it). */
export function checkKey(project: TextProject, report: Report, key: string, pointer: string): void {
  const languages = Object.keys(project.locales);
  const fallback = project.defaultLanguage;
  if (languages.length === 0) return report(pointer, 'no locales found');
  // The default language is what every other falls back to: a key it has is never an error; other
  // languages without it are pending translations (pendingTranslations), listed but not blocking.
  if (project.locales[fallback] && hasKey(project.locales[fallback], key)) return;
  // A locale file that does not parse is reported once, not once per key it would hold.
  const checkable = languages.filter((lang) => !project.brokenLocales?.includes(`${lang}/${key.split('.')[0]}`));
  const missing = checkable.filter((lang) => !hasKey(project.locales[lang] ?? {}, key));
  if (missing.length === 0) return;
  // One problem per key, not one per language: a typo in a key is one mistake. The default
  // language is named first (its keys give the suggestion).
  missing.sort((a, b) => (a === fallback ? -1 : b === fallback ? 1 : a.localeCompare(b)));
  const [first = ''] = missing;
  const where =
    missing.length === 1
      ? `locales/${first}`
      : missing.length === checkable.length
        ? `locales/${first} and the ${missing.length - 1} other locales`
        : missing.map((lang) => `locales/${lang}`).join(', ');
  report(pointer, `i18n key "${key}" is missing in ${where}`, closest(key, localeKeys(project.locales, first)));
}

/** The {{placeholders}} of a key's default-language text (with count for a plural group), or undefined when it has none. */
function placeholdersOf(locale: Record<string, unknown> | undefined, key: string): string[] | undefined {
  if (!locale) return undefined;
  const read = (k: string) =>
    k.split('.').reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), locale);
  const own = read(key);
  const plural = PLURAL_FORMS.map((form) => read(`${key}_${form}`)).filter((t): t is string => typeof t === 'string');
  const texts = [...(typeof own === 'string' ? [own] : []), ...plural];
  if (texts.length === 0) return undefined;
  const names = new Set(texts.flatMap((text) => textArguments(text) ?? []));
  if (plural.length > 0) names.add('count');
  return [...names];
}

/** Interpolation values name {{placeholders}} of the default-language text (a plural text also takes count). */
export function checkValues(project: TextProject, report: Report, key: string, values: Mapping | undefined, pointer: string): void {
  const names = placeholdersOf(project.locales[project.defaultLanguage], key);
  if (names === undefined) return;
  for (const name of Object.keys(values ?? {})) {
    if (!names.includes(name))
      report(
        `${pointer}/${escapePointer(name)}`,
        `the text of "${key}" has no {{${name}}} placeholder (it has: ${names.join(', ') || 'none'})`,
        closest(name, names),
      );
  }
}

/** A text reference: its key, and the placeholders its values fill. */
export function checkTextKey(project: TextProject, report: Report, text: TextRef | undefined, pointer: string): void {
  if (text === undefined) return;
  if (typeof text === 'string') return checkKey(project, report, text, pointer);
  checkKey(project, report, text.key, `${pointer}/key`);
  checkValues(project, report, text.key, text.values, `${pointer}/values`);
}

/** Every value of a locale file is a text or an object of texts. */
export function checkLocaleValues(node: object, file: string, at: string, problems: Problem[]): void {
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string') continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) checkLocaleValues(value, file, `${at}/${key}`, problems);
    else problems.push({ file, pointer: `${at}/${key}`, message: 'a translation must be a string or an object of translations' });
  }
}

/** Every default-language key other languages lack (a plural group counts as present when any of its forms is). */
export function pendingTranslations(project: TextProject, localesDir = 'locales'): PendingTranslation[] {
  const fallback = project.defaultLanguage;
  const source = project.locales[fallback];
  if (!source) return [];
  const others = Object.keys(project.locales).filter((lang) => lang !== fallback);
  const bases = new Set(flattenKeys(source).map((key) => key.replace(/_(zero|one|two|few|many|other)$/, '')));
  const out: PendingTranslation[] = [];
  for (const key of bases) {
    const [file = '', ...path] = key.split('.');
    const languages = others.filter(
      (lang) =>
        !project.brokenLocales?.includes(`${lang}/${file}`) && !hasKey(project.locales[lang] ?? {}, key) && !hasAnyPlural(project.locales[lang] ?? {}, key),
    );
    if (languages.length > 0) out.push({ key, languages, file: `${localesDir}/${fallback}/${file}.json`, pointer: `/${path.map(escapePointer).join('/')}` });
  }
  return out;
}

/** i18n keys written literally in code (t('x.y')) must exist too: components carry no English. */
export function checkCodeKeys(root: string, project: TextProject, dirs = ['src', 'widgets']): Problem[] {
  const problems: Problem[] = [];
  const fallback = project.defaultLanguage;
  const locale = project.locales[fallback];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'generated' || name === 'node_modules') continue;
      if (statSync(path).isDirectory()) visit(path);
      else if (/\.(tsx?|mts)$/.test(name)) {
        const text = readFileSync(path, 'utf8');
        for (const match of text.matchAll(/\bt\(\s*'([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_-]+)+)'/g)) {
          const key = match[1] ?? '';
          const line = text.slice(0, match.index).split('\n').length;
          // Other languages fall back to the default: a key they lack is a pending translation, not an error.
          // A locale file that does not parse is reported once, by loadProject.
          if (!locale || project.brokenLocales?.includes(`${fallback}/${key.split('.')[0]}`)) continue;
          if (!hasKey(locale, key))
            problems.push({ file: `${path.slice(root.length + 1)}:${line}`, pointer: '', message: `i18n key "${key}" is missing in locales/${fallback}` });
        }
      }
    }
  };
  for (const dir of dirs) visit(join(root, dir));
  return problems;
}
