import { basename, resolve } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { NO_SHARED_OUTCOMES } from '../language/outcome-lookup';
import type { ScreenFile, SharedOutcomes } from '../language/types';
import { CatalogueFiles, type CheckCache } from './files';
import { loadListDefaults, loadLists } from './lists';
import { checkLocaleValues } from './locales';
import { schemaProblems, uiKeysOf } from './meta-errors';
import { duplicateKeys, jsonSyntaxError } from './positions';
import { inlineRefs, RefError } from './refs';
import {
  SERVER_ONLY_LOCALE_FILES,
  SHARED_OUTCOMES_FILE,
  type LoadedScreen,
  type OperationFile,
  type Problem,
  type Project,
  type ProjectDirs,
  type UiKeys,
} from './types';
import { loadVocabulary } from './vocabulary';

export interface CheckOptions {
  /** Texts that replace files on disk, by path relative to the root (an unsaved edit, a mutation). */
  files?: Record<string, string>;
  /** Kept between checks of the same root: parsed files, compiled schemas (catalogue/check/files.ts). */
  cache?: CheckCache;
  /** Add line and column to each problem (default true; the mutation test only counts problems). */
  locate?: boolean;
  /**
   * Check only these screen files and the navigations they hold (catalogue/check/reach.ts finds what
   * a change of one file can affect): the other screens are taken to be as a clean check left them.
   * For checks of one changed file against a catalogue known to be clean; default: every screen.
   */
  only?: ReadonlySet<string>;
}

/**
 * Reads the catalogue (screens/, schemas/, locales/, through CatalogueFiles so an unsaved edit counts)
 * into a Project: each file parsed once and checked against its meta-schema, forms with their file
 * $refs inlined, locales merged per language, the business lists and the hosts' vocabulary. What does
 * not load is a problem here and is left out of the cross-checks (catalogue/check/check.ts).
 */
/** Parses one file's text; a syntax error is one problem with its position. */
function parseJson(text: string | undefined, file: string, problems: Problem[]): unknown {
  if (text === undefined) {
    problems.push({ file, pointer: '', message: 'cannot read: no such file' });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    // JSON.parse names no line; jsonc-parser finds the same error with its position.
    const syntax = jsonSyntaxError(text);
    const reason = syntax ? syntax.message : (error as Error).message;
    problems.push({ file, pointer: '', message: `invalid JSON: ${reason}`, ...(syntax ? { line: syntax.line, column: syntax.column } : {}) });
    return undefined;
  }
}

/** A parsed file and the problems of its text (syntax, keys written twice), kept while its text is the same. */
function loadJson(files: CatalogueFiles, file: string, problems: Problem[]): unknown {
  const text = files.read(file);
  const loaded = files.memo(`json:${file}`, [text], () => {
    const own: Problem[] = [];
    const doc = parseJson(text, file, own);
    if (doc !== undefined && text !== undefined) own.push(...duplicateKeys(text, file));
    return { doc, own };
  });
  problems.push(...loaded.own);
  return loaded.doc;
}

interface Meta {
  validateScreen?: ValidateFunction;
  validateOutcomes?: ValidateFunction;
  uiKeys: UiKeys;
}

function loadMeta(files: CatalogueFiles, schemasDir: string, problems: Problem[]): Meta {
  const screenFile = `${schemasDir}/screen.schema.json`;
  const outcomesFile = `${schemasDir}/outcomes.schema.json`;
  const meta = loadJson(files, screenFile, problems) as Record<string, unknown> | undefined;
  const outcomesMeta = loadJson(files, outcomesFile, problems) as Record<string, unknown> | undefined;
  return files.memo('meta', [meta, outcomesMeta], () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validateScreen = meta ? ajv.compile(meta) : undefined;
    return { validateScreen, validateOutcomes: outcomesMeta ? ajv.compile(outcomesMeta) : undefined, uiKeys: uiKeysOf(meta) };
  });
}

/** The operations of schemas/api, by name; a file that does not parse is broken. */
function loadOperations(files: CatalogueFiles, schemasDir: string, problems: Problem[], broken: Set<string>): Record<string, OperationFile> {
  const operationFiles = files.jsonFiles(`${schemasDir}/api`).filter((file) => basename(file) !== 'operation.schema.json');
  const operationDocs = operationFiles.map((file) => loadJson(files, file, problems));
  operationFiles.forEach((file, i) => operationDocs[i] === undefined && broken.add(file));
  return files.memo('operations', operationDocs, () => {
    const out: Record<string, OperationFile> = {};
    for (const doc of operationDocs as Array<OperationFile | undefined>) if (doc && typeof doc.operation === 'string') out[doc.operation] = doc;
    return out;
  });
}

/** Each language's locale files merged (file name to its tree), but the languages with only server texts; files that are not objects are broken. */
function loadLocales(files: CatalogueFiles, localesDir: string, problems: Problem[]) {
  const locales: Record<string, Record<string, unknown>> = {};
  const brokenLocales: string[] = [];
  for (const lang of files.folders(localesDir)) {
    const localeFiles = files.jsonFiles(`${localesDir}/${lang}`);
    if (localeFiles.every((file) => SERVER_ONLY_LOCALE_FILES.includes(basename(file, '.json')))) continue;
    const docs = localeFiles.map((file) => loadJson(files, file, problems));
    const own = files.memo(`locale:${lang}`, docs, () => {
      const merged: Record<string, unknown> = {};
      const shapeProblems: Problem[] = [];
      const brokenFiles: string[] = [];
      docs.forEach((doc, i) => {
        const file = localeFiles[i] ?? '';
        if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
          brokenFiles.push(`${lang}/${basename(file, '.json')}`);
          if (doc !== undefined) shapeProblems.push({ file, pointer: '', message: 'a locale file must hold a JSON object' });
          return;
        }
        checkLocaleValues(doc, file, '', shapeProblems);
        merged[basename(file, '.json')] = doc;
      });
      return { merged, shapeProblems, brokenFiles };
    });
    problems.push(...own.shapeProblems);
    brokenLocales.push(...own.brokenFiles);
    locales[lang] = own.merged;
  }
  return { locales, brokenLocales };
}

/** screens/shared/outcomes.json checked by its meta-schema; without it (or broken) no shared outcomes. */
function loadSharedOutcomes(files: CatalogueFiles, screensDir: string, meta: Meta, problems: Problem[]) {
  const outcomesFile = `${screensDir}/${SHARED_OUTCOMES_FILE}`;
  if (files.read(outcomesFile) === undefined) return { outcomes: NO_SHARED_OUTCOMES, outcomesBroken: false };
  const doc = loadJson(files, outcomesFile, problems);
  const { validateOutcomes, uiKeys } = meta;
  const own = files.memo(`valid:${outcomesFile}`, [doc, validateOutcomes], () =>
    doc === undefined ? undefined : validateOutcomes && !validateOutcomes(doc) ? schemaProblems(validateOutcomes.errors ?? [], outcomesFile, uiKeys) : [],
  );
  if (own) problems.push(...own);
  return { outcomes: own?.length === 0 ? (doc as SharedOutcomes) : NO_SHARED_OUTCOMES, outcomesBroken: own === undefined || own.length > 0 };
}

/** $refs of the forms read through the same files (an edit of a defs file in memory counts), parsed once. */
function refReader(files: CatalogueFiles) {
  return (abs: string): unknown => {
    const file = files.rel(abs);
    const text = files.read(file);
    if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    return files.memo(`ref:${file}`, [text], () => JSON.parse(text) as unknown);
  };
}

/** One screen file checked by the meta-schema and its id, each step's schema with its $refs inlined; no entry when its flow is not sound. */
function checkScreenFile(name: string, doc: unknown, meta: Meta, absSchemas: string, readRef: (abs: string) => unknown) {
  const own: Problem[] = [];
  const { validateScreen, uiKeys } = meta;
  if (validateScreen && !validateScreen(doc)) {
    own.push(...schemaProblems(validateScreen.errors ?? [], name, uiKeys));
    // Mistakes only inside UI schemas (an unknown ui: key, a bad autocomplete token) leave the flow
    // sound: the screen is still checked, so one slip there does not hide the others.
    if (!own.every((p) => /^\/steps\/[^/]+\/uiSchema\//.test(p.pointer))) return { own, entry: undefined };
  }
  const screen = doc as ScreenFile;
  if (screen.id !== basename(name, '.json')) {
    own.push({ file: name, pointer: '/id', message: `id "${screen.id}" must equal the file name "${basename(name, '.json')}"` });
  }
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const [stepName, step] of Object.entries(screen.steps)) {
    if (!step.schema) continue;
    try {
      schemas[stepName] = inlineRefs(step.schema, absSchemas, absSchemas, `/steps/${stepName}/schema`, [], readRef) as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof RefError)) throw error;
      own.push({ file: name, pointer: error.pointer, message: error.message });
    }
  }
  return { own, entry: { file: name, screen, schemas } as LoadedScreen };
}

/** The screen files: those sound enough to check, those that are not (unchecked) and those that do not parse. */
function loadScreens(files: CatalogueFiles, screensDir: string, absSchemas: string, meta: Meta, problems: Problem[], broken: Set<string>) {
  const readRef = refReader(files);
  const screens: LoadedScreen[] = [];
  const unchecked: Array<Partial<ScreenFile>> = [];
  const unparsed: string[] = [];
  for (const name of files.jsonFiles(screensDir)) {
    const doc = loadJson(files, name, problems);
    if (doc === undefined) {
      broken.add(name);
      unparsed.push(name);
      continue;
    }
    const loaded = files.memo(`screen:${name}`, [doc, meta.validateScreen], () => checkScreenFile(name, doc, meta, absSchemas, readRef));
    problems.push(...loaded.own);
    if (loaded.entry) screens.push(loaded.entry);
    else {
      broken.add(name);
      unchecked.push(doc as Partial<ScreenFile>);
    }
  }
  return { screens, unchecked, unparsed };
}

export function loadProject(dirs: ProjectDirs, options: CheckOptions = {}): { project: Project; problems: Problem[]; files: CatalogueFiles } {
  const files = new CatalogueFiles(dirs.root, options.files, options.cache);
  const root = files.root;
  const screensDir = files.rel(resolve(root, dirs.screensDir ?? 'screens'));
  const localesDir = files.rel(resolve(root, dirs.localesDir ?? 'locales'));
  const schemasDir = files.rel(resolve(root, dirs.schemasDir ?? 'schemas'));
  const problems: Problem[] = [];
  const broken = new Set<string>();
  const meta = loadMeta(files, schemasDir, problems);
  const operations = loadOperations(files, schemasDir, problems, broken);
  const { locales, brokenLocales } = loadLocales(files, localesDir, problems);
  const { outcomes, outcomesBroken } = loadSharedOutcomes(files, screensDir, meta, problems);
  const { screens, unchecked, unparsed } = loadScreens(files, screensDir, resolve(root, schemasDir), meta, problems, broken);
  const lists = files.memo('lists', [], () => loadLists(resolve(root, schemasDir)));
  const listDefaults = files.memo('list-defaults', [], () => loadListDefaults(resolve(root, schemasDir)));
  const defaultLanguage = listDefaults.language ?? '';
  if (!defaultLanguage)
    problems.push({
      file: `${schemasDir}/defs/language.json`,
      pointer: '/default',
      message: 'the language list names no "default" among its values (the language every other falls back to)',
    });
  const vocabulary = loadVocabulary();
  problems.push(...vocabulary.problems);
  const project: Project = {
    root,
    screens,
    locales,
    defaultLanguage,
    listDefaults,
    operations,
    schemasDir: resolve(root, schemasDir),
    brokenLocales,
    lists,
    outcomes,
    vocabulary: vocabulary.vocabulary,
    broken: [...broken],
    outcomesBroken,
    unchecked,
    unparsed,
    uiKeys: meta.uiKeys,
  };
  return { project, problems, files };
}
