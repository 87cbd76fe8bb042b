/**
 * The texts of emails and text messages: `locales/<lang>/email.json`, the files translators already
 * edit (the app's bundle leaves this namespace out: scripts/generate.ts). Read once; a language
 * without the file, or a key missing in it, falls back to en-us key by key.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../paths.js';
import { DEFAULT_LANGUAGE } from '../../services/lists.js';

/** The language every other falls back to (schemas/defs/language.json "default"). */
export { DEFAULT_LANGUAGE };
/** Languages written right to left (their HTML gets dir="rtl"). */
export const RTL_LANGUAGES: ReadonlySet<string> = new Set(['ar', 'he']);

/**
 * Our tags as BCP 47 (the lang attribute, date formats): nn-nn, sv-sv and da-da are not country codes
 * of those languages. The same rule as src/app/languages.ts htmlLang, which the server cannot import.
 */
const BCP47: Record<string, string> = { 'nn-nn': 'nn-NO', 'sv-sv': 'sv-SE', 'da-da': 'da-DK' };
export function bcp47(lang: string): string {
  return BCP47[lang] ?? lang.replace(/-([a-z]{2})$/, (_, region: string) => `-${region.toUpperCase()}`);
}

type Tree = { [key: string]: string | Tree };

let cache: Map<string, Tree> | undefined;

function load(dir: string): Map<string, Tree> {
  const out = new Map<string, Tree>();
  for (const lang of fs.readdirSync(dir)) {
    const file = path.join(dir, lang, 'email.json');
    if (fs.existsSync(file)) out.set(lang, JSON.parse(fs.readFileSync(file, 'utf8')) as Tree);
  }
  if (!out.has(DEFAULT_LANGUAGE)) throw new Error(`${path.join(dir, DEFAULT_LANGUAGE, 'email.json')} is missing: emails have no texts`);
  return out;
}

/** All email texts by language (tests pass another folder). */
export function emailTexts(dir = path.join(ROOT, 'locales')): Map<string, Tree> {
  if (dir !== path.join(ROOT, 'locales')) return load(dir);
  cache ??= load(dir);
  return cache;
}

/**
 * The language to write in: the exact tag (`de-de`), else the first language of the same primary
 * subtag (`de-at` → `de-de`, `ar-eg` → `ar`), else en-us.
 */
export function resolveLanguage(wanted: string | null | undefined, available: Iterable<string>): string {
  const tag = (wanted ?? '').trim().toLowerCase().replace('_', '-');
  const langs = [...available];
  if (langs.includes(tag)) return tag;
  const primary = tag.split('-')[0];
  return langs.find((l) => l.split('-')[0] === primary) ?? DEFAULT_LANGUAGE;
}

function at(tree: Tree | undefined, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = node && typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** The text at a dotted key in `lang` (en-us when missing there), with {{name}} filled from vars. */
export function translate(texts: Map<string, Tree>, lang: string, key: string, vars: Record<string, string> = {}): string {
  const template = at(texts.get(lang), key) ?? at(texts.get(DEFAULT_LANGUAGE), key);
  if (template === undefined) throw new Error(`locales/${DEFAULT_LANGUAGE}/email.json has no "${key}"`);
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => vars[name] ?? '');
}
