import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { htmlLang } from '../../src/lib/language-tags';
import { loadListDefaults, loadLists } from '../../catalogue/check/lists';
import { isIcu, pluralCategoriesOf, type Tree } from '../../catalogue/language/icu';
import { splitText, type Part } from './inline';
import { hasText, readLocale, textsOf } from './locale-files';
import { keyUsages } from './usages';
import { writeXliff, type Inline, type XFile, type XUnit } from './xliff';

/**
 * `npm run i18n:export -- --lang de-de [--since <git ref>] [--out FILE]`: the texts a translator
 * has to do for one language, as XLIFF 2.0 (scripts/i18n/xliff.ts): every text the language does
 * not have yet (pending: visitors see the English meanwhile), and with --since every text whose
 * English changed after that version (a commit, tag or branch), with the current translation as
 * the target to revise. Each unit is one text (its id the i18n key), with the English source, notes
 * (where it is shown, why it is in the file, the plural forms the language needs) and its codes
 * marked as <ph> so they cannot be mistranslated. docs/translating.md is the translators' guide.
 */

export interface ExportOptions {
  root: string;
  lang: string;
  since?: string;
}

export interface ExportResult {
  xml: string;
  pending: string[];
  changed: string[];
}

export class ExportError extends Error {}

/** en-us texts of a git version (undefined when locales/en-us had no such file then). */
function englishAt(root: string, source: string, ref: string, files: string[]): Map<string, string> {
  const verify = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: root, encoding: 'utf8' });
  if (verify.status !== 0) throw new ExportError(`--since ${ref}: no such version in this repository (a commit, tag or branch)`);
  const old: Record<string, Tree> = {};
  for (const file of files) {
    const shown = spawnSync('git', ['show', `${ref}:locales/${source}/${file}.json`], { cwd: root, encoding: 'utf8' });
    if (shown.status === 0) old[file] = JSON.parse(shown.stdout) as Tree;
  }
  return textsOf(old);
}

/** Codes to <ph>, each code once in the unit's originalData. */
function toInline(parts: Part[], data: Map<string, string>): Inline[] {
  let n = 0;
  return parts.map((part) => {
    if (typeof part === 'string') return part;
    let ref = data.get(part.code);
    if (!ref) {
      ref = `d${data.size + 1}`;
      data.set(part.code, ref);
    }
    n += 1;
    return { ph: String(n), dataRef: ref, line: 0, column: 0 };
  });
}

function pluralNote(english: string, lang: string): string | undefined {
  if (!isIcu(english) || !/\{\s*count\s*,\s*plural\s*,/.test(english)) return undefined;
  return (
    `ICU plural: keep "{count, plural," and the case names, translate the text in each case's braces; # is the number. ` +
    `${lang} needs the cases ${pluralCategoriesOf(lang).join(', ')} (=0 may stand for zero).`
  );
}

/** The product's languages (schemas/defs/language.json), the tags of --lang and of a file's trgLang. */
export function languagesOf(root: string): string[] {
  return loadLists(join(root, 'schemas')).language ?? [];
}

/** The language translators translate from: the default every other falls back to (schemas/defs/language.json). */
export function sourceLanguageOf(root: string): string {
  const source = loadListDefaults(join(root, 'schemas')).language;
  if (!source) throw new ExportError(`schemas/defs/language.json under ${root} names no default language`);
  return source;
}

export function exportXliff({ root, lang, since }: ExportOptions): ExportResult {
  const source = sourceLanguageOf(root);
  const english = readLocale(root, source);
  if (Object.keys(english).length === 0) throw new ExportError(`no locales/${source} under ${root}`);
  if (lang === source) throw new ExportError(`--lang ${lang}: that is the source language`);
  const languages = languagesOf(root);
  if (!languages.includes(lang)) throw new ExportError(`--lang ${lang}: not a language of the product (${languages.join(', ')})`);
  const target = readLocale(root, lang);
  const englishTexts = textsOf(english);
  const targetTexts = textsOf(target);
  const old = since ? englishAt(root, source, since, Object.keys(english)) : undefined;

  const pending: string[] = [];
  const changed: string[] = [];
  for (const [key, text] of englishTexts) {
    if (!hasText(targetTexts, key)) pending.push(key);
    else if (old && old.get(key) !== text) changed.push(key);
  }
  const usages = keyUsages(root, [...pending, ...changed]);
  const files = new Map<string, XFile>();
  for (const key of [...englishTexts.keys()].filter((k) => pending.includes(k) || changed.includes(k))) {
    const source = englishTexts.get(key) ?? '';
    const file = key.split('.')[0] ?? '';
    const data = new Map<string, string>();
    const unit: XUnit = { id: key, notes: [], data: {}, source: toInline(splitText(source), data), state: 'initial' };
    const translation = targetTexts.get(key);
    if (changed.includes(key) && translation !== undefined) unit.target = toInline(splitText(translation), data);
    unit.data = Object.fromEntries([...data].map(([code, ref]) => [ref, code]));
    for (const where of usages.get(key) ?? []) unit.notes.push({ category: 'location', text: where });
    if (changed.includes(key)) {
      const before = old?.get(key);
      unit.notes.push({
        category: 'status',
        text:
          before === undefined
            ? `New in English since ${since}; the target is its current translation: check it.`
            : `The English changed since ${since} (it was: "${before}"). The target is the current translation: revise it.`,
      });
    } else unit.notes.push({ category: 'status', text: `Not translated yet: visitors in ${lang} see the English meanwhile.` });
    const plural = pluralNote(source, lang);
    if (plural) unit.notes.push({ category: 'format', text: plural });
    const entry = files.get(file) ?? { id: file, original: `locales/${source}/${file}.json`, units: [] };
    entry.units.push(unit);
    files.set(file, entry);
  }
  const xml = writeXliff({ srcLang: htmlLang(source), trgLang: htmlLang(lang), files: [...files.values()] });
  return { xml, pending, changed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { lang: { type: 'string' }, since: { type: 'string' }, out: { type: 'string' }, root: { type: 'string' } } });
  const root = resolve(values.root ?? process.cwd());
  const lang = values.lang?.toLowerCase();
  if (!lang) {
    console.error('usage: npm run i18n:export -- --lang de-de [--since <git ref>] [--out FILE]');
    process.exit(2);
  }
  try {
    const { xml, pending, changed } = exportXliff({ root, lang, since: values.since });
    const out = resolve(values.out ?? `build/xliff/${lang}.xlf`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, xml);
    console.log(`${out}: ${pending.length} text(s) not yet in ${lang}${values.since ? `, ${changed.length} changed in English since ${values.since}` : ''}`);
  } catch (error) {
    if (!(error instanceof ExportError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
