import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pluralBase, type Tree } from '../../catalogue/language/icu';

/**
 * locales/<lang>/<file>.json as the translator tools read and write them: texts by dotted key
 * ('login.fields.email' = file login.json, path fields.email), a text set at its key in en-us's
 * order, files written in the catalogue's own style (two-space JSON, one text a line) with the
 * invisible direction marks of right-to-left texts escaped (\u2066 …) so a reviewer sees them.
 */
export type LocaleFiles = Record<string, Tree>;

export function readLocale(root: string, lang: string): LocaleFiles {
  const dir = join(root, 'locales', lang);
  if (!existsSync(dir)) return {};
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => [name.slice(0, -5), JSON.parse(readFileSync(join(dir, name), 'utf8')) as Tree]),
  );
}

/** Every text by its dotted key, in file and key order. */
export function textsOf(files: LocaleFiles): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (node: Tree, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const path = `${prefix}.${key}`;
      if (typeof value === 'string') out.set(path, value);
      else visit(value, path);
    }
  };
  for (const [file, tree] of Object.entries(files)) visit(tree, file);
  return out;
}

/** True when a language has the text of a key: as it is, or as i18next plural forms (key_one …). */
export function hasText(texts: Map<string, string>, key: string): boolean {
  if (texts.has(key)) return true;
  for (const other of texts.keys()) if (other !== key && pluralBase(other) === key) return true;
  return false;
}

/**
 * Sets one text in a language's files (a new key goes where en-us has it), replacing i18next
 * plural forms of the key (key_one …) that an ICU text now stands for.
 */
export function setText(files: LocaleFiles, english: LocaleFiles, key: string, text: string): void {
  const [file = '', ...path] = key.split('.');
  const last = path.pop() ?? '';
  files[file] ??= {};
  let node = files[file];
  let englishNode: Tree | undefined = english[file];
  for (const part of path) {
    const next = node[part];
    const englishNext = englishNode?.[part];
    const order = englishNode ? Object.keys(englishNode) : [];
    englishNode = typeof englishNext === 'object' ? englishNext : undefined;
    if (typeof next === 'object') node = next;
    else node = insertInOrder(node, part, {}, order) as Tree;
  }
  for (const key of Object.keys(node)) if (key !== last && pluralBase(key) === last) delete node[key];
  if (last in node) node[last] = text;
  else insertInOrder(node, last, text, englishNode ? Object.keys(englishNode) : []);
}

/** Adds key to node at the place en-us's order gives it (after the en-us keys before it that node has). */
function insertInOrder(node: Tree, key: string, value: string | Tree, order: string[]): string | Tree {
  const entries = Object.entries(node);
  const at = order.indexOf(key);
  const before = new Set(at >= 0 ? order.slice(0, at) : order);
  let index = entries.length;
  if (at >= 0) {
    index = 0;
    entries.forEach(([k], i) => {
      if (before.has(k)) index = i + 1;
    });
  }
  entries.splice(index, 0, [key, value]);
  for (const k of Object.keys(node)) delete node[k];
  for (const [k, v] of entries) node[k] = v;
  return value;
}

/** A locale file's text: two-space JSON, direction marks and isolates written as escapes. */
export function serializeLocale(tree: Tree): string {
  return `${JSON.stringify(tree, null, 2).replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

export function writeLocaleFile(root: string, lang: string, file: string, tree: Tree): void {
  writeFileSync(join(root, 'locales', lang, `${file}.json`), serializeLocale(tree));
}
