import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { htmlLang } from '../../src/lib/language-tags';
import { textProblemsOf } from '../../catalogue/check/texts';
import { languagesOf, sourceLanguageOf } from './export';
import { splitText } from './inline';
import { readLocale, setText, textsOf, writeLocaleFile } from './locale-files';
import { readXliff, type Inline, type XUnit } from './xliff';

/**
 * `npm run i18n:import FILE [--check]`: a translated XLIFF 2.0 file (from i18n:export, through any
 * translation tool) back into locales/<lang>/. Every unit is checked first, as the build checks a
 * text, and nothing is written unless all pass: the unit id is a key of en-us; its English source
 * is still the current one; the target keeps the English text's placeholders and adds none (no
 * <ph> that the English does not have, no data the file invents); no markup (no element but <ph>,
 * no HTML in the text); ICU syntax and plural forms valid for the language. Each problem names the
 * file, line and unit id; the exit code is 1. Units without a target are left as they are (still
 * pending); --check validates without writing.
 */
export interface ImportProblem {
  file: string;
  line?: number;
  column?: number;
  unit?: string;
  message: string;
}

export interface ImportResult {
  lang?: string;
  problems: ImportProblem[];
  /** Keys whose text was written (or, with check, would be). */
  merged: string[];
  /** Units with no target: still to translate. */
  untranslated: string[];
  /** Units whose target equals the current text. */
  unchanged: string[];
}

const HTML = /<\/?[A-Za-z][\w-]*(\s[^<>]*)?\/?>/;

export function formatImportProblem(p: ImportProblem): string {
  const at = p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : '';
  return `${p.file}${at}${p.unit !== undefined ? ` unit "${p.unit}"` : ''}: ${p.message}`;
}

/** The target as text, or the reasons it cannot be one. */
function targetText(unit: XUnit, target: Inline[], allowedCodes: Set<string>): { text?: string; problems: string[] } {
  const problems: string[] = [];
  let text = '';
  for (const part of target) {
    if (typeof part === 'string') {
      const html = HTML.exec(part);
      if (html) problems.push(`markup injected: the text holds "${html[0]}" (texts are plain; placeholders are <ph> elements)`);
      text += part;
    } else if ('foreign' in part) problems.push(`markup injected: <${part.foreign}> is not allowed in a target (only the <ph> placeholders of the source)`);
    else {
      const code = part.dataRef !== undefined ? unit.data[part.dataRef] : undefined;
      if (code === undefined) problems.push(`placeholder <ph id="${part.ph}"> refers to no original data (dataRef "${part.dataRef ?? ''}")`);
      else if (!allowedCodes.has(code)) problems.push(`placeholder ${code} is not in the English text (placeholders cannot be added)`);
      else text += code;
    }
  }
  return problems.length > 0 ? { problems } : { text, problems };
}

export function importXliff(root: string, file: string, options: { write?: boolean } = {}): ImportResult {
  const shown = relative(process.cwd(), file) || file;
  const result: ImportResult = { problems: [], merged: [], untranslated: [], unchanged: [] };
  const problem = (message: string, at: { line?: number; column?: number; unit?: string } = {}) => result.problems.push({ file: shown, ...at, message });
  let xml: string;
  try {
    xml = readFileSync(file, 'utf8');
  } catch (error) {
    problem(`cannot read the file: ${(error as Error).message}`);
    return result;
  }
  const { doc, problems } = readXliff(xml);
  problems.forEach((p) => problem(p.message, p));
  if (!doc) return result;

  const sourceLanguage = sourceLanguageOf(root);
  if (doc.srcLang.toLowerCase() !== htmlLang(sourceLanguage).toLowerCase())
    problem(`srcLang "${doc.srcLang}": the source language is ${htmlLang(sourceLanguage)}`, { line: 2 });
  const languages = languagesOf(root).filter((l) => l !== sourceLanguage);
  const lang = languages.find((l) => l === doc.trgLang?.toLowerCase() || htmlLang(l).toLowerCase() === doc.trgLang?.toLowerCase());
  if (!lang) {
    problem(`trgLang "${doc.trgLang ?? ''}": not a language of the product (${languages.map(htmlLang).join(', ')})`, { line: 2 });
    return result;
  }
  result.lang = lang;

  const english = readLocale(root, sourceLanguage);
  const englishTexts = textsOf(english);
  const files = readLocale(root, lang);
  const current = textsOf(files);
  const seen = new Set<string>();
  const accepted: Array<[string, string]> = [];
  for (const unit of doc.files.flatMap((f) => f.units)) {
    const at = { line: unit.line, column: unit.column, unit: unit.id };
    if (seen.has(unit.id)) {
      problem('the unit appears twice', at);
      continue;
    }
    seen.add(unit.id);
    const source = englishTexts.get(unit.id);
    if (source === undefined) {
      problem('unknown unit id: no such text in locales/en-us (a key renamed or removed since the export?)', at);
      continue;
    }
    const codes = new Set(splitText(source).flatMap((part) => (typeof part === 'string' ? [] : [part.code])));
    const sourceText = targetText(unit, unit.source, new Set(Object.values(unit.data)));
    if (sourceText.text !== undefined && sourceText.text !== source)
      problem(`the English text changed since this file was exported (now: "${source}"): export again and carry the translation over`, at);
    if (!unit.target || unit.target.every((part) => typeof part === 'string' && part.trim() === '')) {
      result.untranslated.push(unit.id);
      continue;
    }
    const target = targetText(unit, unit.target, codes);
    target.problems.forEach((message) => problem(message, at));
    if (target.text === undefined) continue;
    const reasons = textProblemsOf(target.text, lang, { text: source, pluralForm: false });
    reasons.forEach((message) => problem(message, at));
    if (reasons.length > 0) continue;
    if (current.get(unit.id) === target.text) result.unchanged.push(unit.id);
    else accepted.push([unit.id, target.text]);
  }
  if (result.problems.length > 0) return result;
  result.merged = accepted.map(([key]) => key);
  if (options.write === false) return result;
  const touched = new Set<string>();
  for (const [key, text] of accepted) {
    setText(files, english, key, text);
    touched.add(key.split('.')[0] ?? '');
  }
  for (const name of touched) {
    const tree = files[name];
    if (tree) writeLocaleFile(root, lang, name, tree);
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { check: { type: 'boolean' }, root: { type: 'string' } } });
  const [input] = positionals;
  if (!input) {
    console.error('usage: npm run i18n:import FILE [--check]');
    process.exit(2);
  }
  const root = resolve(values.root ?? process.cwd());
  const result = importXliff(root, resolve(input), { write: !values.check });
  if (result.problems.length > 0) {
    for (const p of result.problems) console.error(formatImportProblem(p));
    console.error(`\n${result.problems.length} problem(s): nothing was imported.`);
    process.exit(1);
  }
  console.log(
    `${input}: ${result.merged.length} text(s) ${values.check ? 'would be ' : ''}written to locales/${result.lang ?? ''}/, ${result.unchanged.length} unchanged, ${result.untranslated.length} without a translation yet`,
  );
}
