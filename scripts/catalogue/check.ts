import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ACTION_NAMES } from '../../src/engine/action-names';
import { ENV_FLAGS, ENV_SOURCES, flagsOf, parseFlag } from '../../src/engine/conditions';
import { outcomeFor } from '../../src/engine/outcomes';
import type { Block, CallSpec, Condition, Mapping, Outcome, Outcomes, ScreenFile, SharedOutcomes, Source, StepSpec, TextRef } from '../../src/engine/types';
import { builtInWidgetNames, contentNames, widgetNames } from '../../widgets/widget-names';
import { enumNameKeys, listReference, listsInCondition, loadLists, type Lists } from './lists';
import { CatalogueFiles, CheckCache } from './files';
import { duplicateKeys, escapePointer, jsonSyntaxError, PositionFinder } from './positions';
import { inlineRefs, RefError } from './refs';
import { closest, flattenKeys } from './suggest';
import { contractProblems, contractSchema, isTransportCode, resultCodesOf, schemasAt, TRANSPORT_CODES, type Report } from './contract';
import { contextNames, factsOf, routeHas, targetsOf, type FileFacts, type Navigation } from './context';
import {
  checkMessages,
  checkOrder,
  checkSchemaNames,
  checkWidgetOptions,
  compileProblem,
  loadWidgetOptions,
  MESSAGE_KEYWORDS,
  type OptionReference,
  type WidgetOptionSchemas,
} from './form';
import { formatNames } from '@frontdoor/validators';

/** One thing wrong with the catalogue: the file, where in it (JSON Pointer) and why. */
export interface Problem {
  file: string;
  pointer: string;
  message: string;
  /** 1-based position of the pointer's node (or of the syntax error) in the file, when known. */
  line?: number;
  column?: number;
  /** The closest valid name ('did you mean …'), when one is close enough. */
  suggestion?: string;
}

export interface OperationFile {
  operation: string;
  method: string;
  path: string;
  request: Record<string, unknown> | null;
  response: Record<string, unknown> | null;
  /** The bot-check action its tokens name, when not the operation's name. */
  botCheckAction?: string;
}

export interface LoadedScreen {
  file: string;
  screen: ScreenFile;
  /** Step name to its schema with file $refs inlined. */
  schemas: Record<string, Record<string, unknown>>;
}

export interface Project {
  root: string;
  screens: LoadedScreen[];
  /** Language to its merged translations ('<file>.<path>' keys). */
  locales: Record<string, Record<string, unknown>>;
  operations: Record<string, OperationFile>;
  /** Where screen.schema.json, defs/ and api/ live (resolves $refs of response schemas). */
  schemasDir?: string;
  /** '<lang>/<file>' of locale files that did not load (their own problem is reported once). */
  brokenLocales?: string[];
  /** Business lists of schemas/defs (scripts/catalogue/lists.ts). */
  lists: Lists;
  /** screens/shared/outcomes.json. */
  outcomes: SharedOutcomes;
  /** Files that did not parse or did not pass their meta-schema: reported once, their facts unknown. */
  broken?: string[];
  /** screens/shared/outcomes.json did not load: its blocks and defaults are unknown, not missing. */
  outcomesBroken?: boolean;
  /** Screens that parse but failed the meta-schema (their routes still count). */
  unchecked?: Array<Partial<ScreenFile>>;
  /** Screen files that do not parse. */
  unparsed?: string[];
  /** The ui: keys the meta-schema enumerates. */
  uiKeys?: UiKeys;
}

/** Where the shared outcomes live, beside the screens. */
export const SHARED_OUTCOMES_FILE = 'shared/outcomes.json';
/**
 * Locale files only the server reads (email.json: emails and text messages, server/delivery/email):
 * checked like the others, kept out of the app's bundle (generate.ts). A folder holding nothing else
 * (ar and he until their UI texts land) is not a UI language: none of its UI texts is "pending".
 */
export const SERVER_ONLY_LOCALE_FILES: readonly string[] = ['email'];
const NO_SHARED_OUTCOMES: SharedOutcomes = { defaults: {}, visitorDefaults: {}, blocks: {}, unhandled: { error: 'common.errors.unexpected', report: true } };

export interface ProjectDirs {
  root: string;
  screensDir?: string;
  localesDir?: string;
  schemasDir?: string;
}

const rel = (root: string, file: string) => file.slice(root.length + 1) || file;

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

function describeAjvError(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown property "${String(p.additionalProperty)}"`;
    case 'required':
      return `missing required property "${String(p.missingProperty)}"`;
    case 'enum':
      return `must be one of ${JSON.stringify(p.allowedValues)}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'pattern':
      return `does not match the pattern ${String(p.pattern)}`;
    default:
      return error.message ?? error.keyword;
  }
}

/** Keeps the most specific errors: ajv reports every failed branch of a oneOf. */
function specificErrors(errors: ErrorObject[]): ErrorObject[] {
  const meaningful = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
  const byPath = new Map<string, ErrorObject>();
  for (const error of meaningful) {
    const known = byPath.get(error.instancePath);
    if (!known || (known.keyword === 'type' && error.keyword !== 'type')) byPath.set(error.instancePath, error);
  }
  return [...byPath.values()];
}

/** Meta-schema errors as problems; an unknown ui: key is named at the key, with the closest known one. */
function schemaProblems(errors: ErrorObject[], file: string, uiKeys: UiKeys): Problem[] {
  const out: Problem[] = [];
  // A bad property name: ajv says it at the object, with its name in propertyName; say it at the name.
  const names = new Map<string, { parent: string; name: string }>();
  for (const error of errors) {
    const name = error.keyword === 'propertyNames' ? (error.params as Record<string, unknown>).propertyName : error.propertyName;
    if (typeof name === 'string') names.set(`${error.instancePath}/${escapePointer(name)}`, { parent: error.instancePath, name });
  }
  // A bad name's value is then checked as something else (a field's UI): those errors are its echo.
  const underBadName = (path: string) => [...names.keys()].some((at) => path === at || path.startsWith(`${at}/`));
  for (const error of specificErrors(errors.filter((e) => e.keyword !== 'propertyNames' && e.propertyName === undefined && !underBadName(e.instancePath)))) {
    out.push({ file, pointer: error.instancePath, message: describeAjvError(error) });
  }
  for (const [pointer, { parent, name }] of names) {
    if (/^ui/i.test(name)) {
      const known = /\/uiSchema$/.test(parent) ? uiKeys.root : uiKeys.field;
      const suggestion = closest(name, known);
      out.push({
        file,
        pointer,
        message: `unknown UI key "${name}" (known: ${known.join(', ')})${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        ...(suggestion ? { suggestion } : {}),
      });
    } else out.push({ file, pointer, message: `"${name}" is not an allowed name here` });
  }
  return out;
}

/** The ui: keys the meta-schema enumerates, for the step root and for a field. */
export interface UiKeys {
  root: string[];
  field: string[];
}

function uiKeysOf(meta: Record<string, unknown> | undefined): UiKeys {
  const defs = (meta?.definitions ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  const keys = (name: string) => Object.keys(defs[name]?.properties ?? {}).filter((k) => k.startsWith('ui:'));
  return { root: keys('uiSchema'), field: keys('uiField') };
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

export interface CheckOptions {
  /** Texts that replace files on disk, by path relative to the root (an unsaved edit, a mutation). */
  files?: Record<string, string>;
  /** Kept between checks of the same root: parsed files, compiled schemas (scripts/catalogue/files.ts). */
  cache?: CheckCache;
  /** Add line and column to each problem (default true; the mutation test only counts problems). */
  locate?: boolean;
}

export function loadProject(dirs: ProjectDirs, options: CheckOptions = {}): { project: Project; problems: Problem[]; files: CatalogueFiles } {
  const files = new CatalogueFiles(dirs.root, options.files, options.cache);
  const root = files.root;
  const screensDir = files.rel(resolve(root, dirs.screensDir ?? 'screens'));
  const localesDir = files.rel(resolve(root, dirs.localesDir ?? 'locales'));
  const schemasDir = files.rel(resolve(root, dirs.schemasDir ?? 'schemas'));
  const problems: Problem[] = [];
  const broken = new Set<string>();

  const { validateScreen, validateOutcomes, uiKeys } = loadMeta(files, schemasDir, problems);

  const operationFiles = files.jsonFiles(`${schemasDir}/api`).filter((file) => basename(file) !== 'operation.schema.json');
  const operationDocs = operationFiles.map((file) => loadJson(files, file, problems));
  const operations = files.memo('operations', operationDocs, () => {
    const out: Record<string, OperationFile> = {};
    for (const doc of operationDocs as Array<OperationFile | undefined>) if (doc && typeof doc.operation === 'string') out[doc.operation] = doc;
    return out;
  });
  operationFiles.forEach((file, i) => operationDocs[i] === undefined && broken.add(file));

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

  let outcomes = NO_SHARED_OUTCOMES;
  const outcomesFile = `${screensDir}/${SHARED_OUTCOMES_FILE}`;
  let outcomesBroken = false;
  if (files.read(outcomesFile) !== undefined) {
    const doc = loadJson(files, outcomesFile, problems);
    const own = files.memo(`valid:${outcomesFile}`, [doc, validateOutcomes], () =>
      doc === undefined ? undefined : validateOutcomes && !validateOutcomes(doc) ? schemaProblems(validateOutcomes.errors ?? [], outcomesFile, uiKeys) : [],
    );
    if (own === undefined || own.length > 0) outcomesBroken = true;
    if (own) problems.push(...own);
    if (own?.length === 0) outcomes = doc as SharedOutcomes;
  }

  // $refs of the forms read through the same files (an edit of a defs file in memory counts), parsed once.
  const absSchemas = resolve(root, schemasDir);
  const readRef = (abs: string): unknown => {
    const file = files.rel(abs);
    const text = files.read(file);
    if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    return files.memo(`ref:${file}`, [text], () => JSON.parse(text) as unknown);
  };
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
    const loaded = files.memo(`screen:${name}`, [doc, validateScreen], () => {
      const own: Problem[] = [];
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
      return { own, entry: { file: name, screen, schemas } };
    });
    problems.push(...loaded.own);
    if (loaded.entry) screens.push(loaded.entry);
    else {
      broken.add(name);
      unchecked.push(doc as Partial<ScreenFile>);
    }
  }
  const lists = files.memo('lists', [], () => loadLists(resolve(root, schemasDir)));
  return {
    project: {
      root,
      screens,
      locales,
      operations,
      schemasDir: resolve(root, schemasDir),
      brokenLocales,
      lists,
      outcomes,
      broken: [...broken],
      outcomesBroken,
      unchecked,
      unparsed,
      uiKeys,
    },
    problems,
    files,
  };
}

const keyCache = new WeakMap<object, Set<string>>();
/** All keys of one language, for 'did you mean' on a misspelt key. */
function localeKeys(project: Project, lang: string): Set<string> {
  const locale = project.locales[lang] ?? {};
  let keys = keyCache.get(locale);
  if (!keys) {
    keys = new Set(flattenKeys(locale));
    keyCache.set(locale, keys);
  }
  return keys;
}

/**
 * The result codes an operation is known to answer: the enum or examples of the property that
 * resultFrom names in its response schema (schemas/api/common/loginResult.json lists them in
 * resultCode.examples). An open set stays open: codes not listed are what '*' is for.
 */
export function knownResultCodes(project: Project, operation: string, resultFrom = '/resultCode'): string[] {
  return resultCodesOf(project, operation, resultFrom).codes;
}

function checkLocaleValues(node: object, file: string, at: string, problems: Problem[]): void {
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string') continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) checkLocaleValues(value, file, `${at}/${key}`, problems);
    else problems.push({ file, pointer: `${at}/${key}`, message: 'a translation must be a string or an object of translations' });
  }
}

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

const TEXT_UI_KEYS = ['ui:title', 'ui:description', 'ui:help', 'ui:placeholder'];

/** The language every other falls back to (src/app/i18n.ts fallbackLng): a key it lacks is an error. */
export const DEFAULT_LANGUAGE = 'en-us';

/**
 * A text of the default language that another language does not have yet: the app shows the
 * en-us text there (i18next's fallbackLng), so it does not block a build or a save; the check and
 * the studio list it. One entry per key, located at its en-us text.
 */
export interface PendingTranslation {
  /** The dotted key, e.g. login.fields.nickname (a plural group by its base key). */
  key: string;
  /** Languages without it, e.g. ['da-da', 'de-de', ...]. */
  languages: string[];
  /** Where the en-us text is: locales/en-us/<file>.json, its pointer and position. */
  file: string;
  pointer: string;
  line?: number;
  column?: number;
}

/** Every en-us key other languages lack (a plural group counts as present when any of its forms is). */
export function pendingTranslations(project: Pick<Project, 'locales' | 'brokenLocales'>, localesDir = 'locales'): PendingTranslation[] {
  const english = project.locales[DEFAULT_LANGUAGE];
  if (!english) return [];
  const others = Object.keys(project.locales).filter((lang) => lang !== DEFAULT_LANGUAGE);
  const bases = new Set(flattenKeys(english).map((key) => key.replace(/_(zero|one|two|few|many|other)$/, '')));
  const out: PendingTranslation[] = [];
  for (const key of bases) {
    const [file = '', ...path] = key.split('.');
    const languages = others.filter(
      (lang) =>
        !project.brokenLocales?.includes(`${lang}/${file}`) && !hasKey(project.locales[lang] ?? {}, key) && !hasAnyPlural(project.locales[lang] ?? {}, key),
    );
    if (languages.length > 0)
      out.push({ key, languages, file: `${localesDir}/${DEFAULT_LANGUAGE}/${file}.json`, pointer: `/${path.map(escapePointer).join('/')}` });
  }
  return out;
}

/** A language with fewer plural forms than en-us (ja-jp: only _other) still has the text. */
function hasAnyPlural(locale: Record<string, unknown>, key: string): boolean {
  return ['zero', 'one', 'two', 'few', 'many', 'other'].some((form) => hasKey(locale, `${key}_${form}`));
}

/** All cross-checks of one screen; the meta-schema has already passed. */
/** What the check of one screen needs beyond the screen: facts of the whole catalogue. */
interface ScreenEnv {
  files: CatalogueFiles;
  /** Context names the screen can hold, and how each is set. */
  names: Map<string, string>;
  /** Context name to the sources its assigns copy (own and included blocks'). */
  assignSources: Map<string, unknown[]>;
  /** Context names the screen reads (sources, conditions, included blocks, widget options). */
  reads: Set<string>;
  facts: FileFacts;
  widgetOptions: WidgetOptionSchemas;
  /** False when a screen file did not load: a route may be missing only because of it. */
  routesKnown: boolean;
  /** False when a file of schemas/api or the shared outcomes did not load. */
  operationsKnown: boolean;
}

function checkScreen(entry: LoadedScreen, project: Project, allRoutes: string[], problems: Problem[], env: ScreenEnv): void {
  const { screen, file } = entry;
  const report = (pointer: string, message: string, suggestion?: string) =>
    problems.push({ file, pointer, message: suggestion ? `${message}; did you mean "${suggestion}"?` : message, ...(suggestion ? { suggestion } : {}) });
  const languages = Object.keys(project.locales);
  const stepNames = Object.keys(screen.steps);
  const routeParams = new Set((screen.routes ?? []).flatMap((r) => [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '')));

  const checkKey = (key: string, pointer: string) => {
    if (languages.length === 0) return report(pointer, 'no locales found');
    // The default language is what every other falls back to: a key it has is never an error; other
    // languages without it are pending translations (pendingTranslations), listed but not blocking.
    if (project.locales[DEFAULT_LANGUAGE] && hasKey(project.locales[DEFAULT_LANGUAGE], key)) return;
    // A locale file that does not parse is reported once, not once per key it would hold.
    const checkable = languages.filter((lang) => !project.brokenLocales?.includes(`${lang}/${key.split('.')[0]}`));
    const missing = checkable.filter((lang) => !hasKey(project.locales[lang] ?? {}, key));
    if (missing.length === 0) return;
    // One problem per key, not one per language: a typo in a key is one mistake. The default
    // language is named first (its keys give the suggestion).
    missing.sort((a, b) => (a === 'en-us' ? -1 : b === 'en-us' ? 1 : a.localeCompare(b)));
    const [first = ''] = missing;
    const where =
      missing.length === 1
        ? `locales/${first}`
        : missing.length === checkable.length
          ? `locales/${first} and the ${missing.length - 1} other locales`
          : missing.map((lang) => `locales/${lang}`).join(', ');
    report(pointer, `i18n key "${key}" is missing in ${where}`, closest(key, localeKeys(project, first)));
  };
  /** Interpolation values name {{placeholders}} of the en-us text (a plural text also takes count). */
  const checkValues = (key: string, values: Mapping | undefined, pointer: string) => {
    const names = placeholdersOf(project.locales[DEFAULT_LANGUAGE], key);
    if (names === undefined) return;
    for (const name of Object.keys(values ?? {})) {
      if (!names.includes(name))
        report(
          `${pointer}/${escapePointer(name)}`,
          `the text of "${key}" has no {{${name}}} placeholder (it has: ${names.join(', ') || 'none'})`,
          closest(name, names),
        );
    }
  };
  const checkText = (text: TextRef | undefined, pointer: string) => {
    if (text === undefined) return;
    if (typeof text === 'string') checkKey(text, pointer);
    else {
      checkKey(text.key, `${pointer}/key`);
      checkValues(text.key, text.values, `${pointer}/values`);
      checkMapping(text.values, `${pointer}/values`);
    }
  };
  const formFields = new Set(Object.values(entry.schemas).flatMap((schema) => Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {})));
  const checkSource = (source: Source, pointer: string, fields?: Set<string>) => {
    // Nested sources ({map}, {mask}) are checked like top-level ones.
    if (typeof source === 'object' && 'map' in source) return checkMapping(source.map, `${pointer}/map`, fields);
    if (typeof source === 'object' && 'mask' in source) return checkSource(source.mask, `${pointer}/mask`, fields);
    if (typeof source !== 'string') return;
    const param = /^\$params\/(.+)$/.exec(source);
    if (param && !routeParams.has(param[1] ?? '')) report(pointer, `route parameter "${param[1]}" is not in any route of this screen`);
    const env = /^\$env\/([^/]*)/.exec(source)?.[1];
    if (env !== undefined && !(ENV_SOURCES as readonly string[]).includes(env))
      report(pointer, `unknown "$env/${env}" (known: ${ENV_SOURCES.join(', ')})`, closest(env, ENV_SOURCES) && `$env/${closest(env, ENV_SOURCES)}`);
    const field = /^\/([^/]+)/.exec(source);
    // Without a step (on enter, timers), a form field is one of any step's.
    const known = fields ?? formFields;
    if (field && !known.has(field[1] ?? ''))
      report(pointer, `form field "${field[1]}" does not exist in ${fields ? 'this step' : 'any step of this screen'}`, closest(field[1] ?? '', known));
  };
  const checkMapping = (mapping: Mapping | undefined, pointer: string, fields?: Set<string>) => {
    for (const [name, source] of Object.entries(mapping ?? {})) checkSource(source, `${pointer}/${name}`, fields);
  };
  const stepFieldsOf = (stepName: string) =>
    new Set(Object.keys(((entry.schemas[stepName] ?? screen.steps[stepName]?.schema)?.properties as Record<string, unknown> | undefined) ?? {}));
  const contextHint = () => [...env.names.keys()].sort().join(', ') || 'nothing';
  const fieldSchemas = new Map<string, Record<string, unknown>>();
  for (const schema of Object.values(entry.schemas)) {
    for (const [name, sub] of Object.entries((schema.properties as Record<string, Record<string, unknown>> | undefined) ?? {}))
      if (!fieldSchemas.has(name)) fieldSchemas.set(name, sub);
  }
  /** A context value set only by copying form fields with an enum takes only those values. */
  const contextValues = (name: string): string[] | undefined => {
    if (Object.hasOwn(screen.context ?? {}, name) || (screen.routes ?? []).some((r) => Object.hasOwn(r.context ?? {}, name))) return undefined;
    const sources = env.assignSources.get(name) ?? [];
    if (sources.length === 0) return undefined;
    const values = new Set<string>();
    for (const source of sources) {
      const field = typeof source === 'string' ? /^\/([^/]+)$/.exec(source)?.[1] : undefined;
      const list = field === undefined ? undefined : valuesOfSchema(fieldSchemas.get(field));
      if (!list) return undefined;
      list.forEach((v) => values.add(v));
    }
    return [...values];
  };
  /** The values a flag compares against must be ones the field or state value can take, when it lists them. */
  const checkFlagValues = (flag: ReturnType<typeof parseFlag>, pointer: string) => {
    if (flag.operator !== '=') return;
    const allowed =
      flag.reads === 'form'
        ? enumOfSchema(fieldSchemas.get(flag.name))
        : flag.reads === 'ctx'
          ? (listOrEnum(screen.stateParam?.fields?.[flag.name]?.enum, project.lists) ?? contextValues(flag.name))
          : undefined;
    if (!allowed) return;
    for (const option of flag.options) {
      if (listReference(option) !== undefined || allowed.includes(option)) continue;
      report(pointer, `"${flag.name}" is never "${option}" (its values: ${allowed.join(', ')})`, closest(option, allowed));
    }
  };
  const checkCondition = (condition: Condition | undefined, pointer: string) => {
    flagsOf(condition).forEach((text, i) => {
      const flag = parseFlag(text);
      const at = Array.isArray(condition) ? `${pointer}/${i}` : pointer;
      checkFlagValues(flag, at);
    });
    for (const text of flagsOf(condition)) {
      const flag = parseFlag(text);
      if (flag.reads === 'form' && !formFields.has(flag.name))
        report(pointer, `form field "${flag.name}" does not exist in any step of this screen`, closest(flag.name, [...formFields]));
      if (flag.reads === 'env' && !(ENV_FLAGS as readonly string[]).includes(flag.name)) {
        report(
          pointer,
          `unknown environment flag "$${flag.name}" (known: ${ENV_FLAGS.map((f) => '$' + f).join(', ')})`,
          closest(
            '$' + flag.name,
            ENV_FLAGS.map((f) => '$' + f),
          ),
        );
      }
    }
    for (const name of listsInCondition(condition)) checkList(name, pointer);
  };
  const checkList = (name: string, pointer: string) => {
    if (!project.lists[name])
      report(
        pointer,
        `unknown list "@${name}" (schemas/defs/ files with an enum: ${Object.keys(project.lists).join(', ')})`,
        closest(name, Object.keys(project.lists)),
      );
  };
  const checkOutcome = (outcome: Outcome, pointer: string, fields?: Set<string>) => {
    checkMapping(outcome.assign, `${pointer}/assign`, fields);
    (outcome.actions ?? []).forEach((name, i) => {
      if (!(ACTION_NAMES as readonly string[]).includes(name))
        report(`${pointer}/actions/${i}`, `unknown action "${name}" (registered: ${ACTION_NAMES.join(', ')})`, closest(name, ACTION_NAMES));
    });
    if (outcome.message) {
      checkKey(outcome.message.key, `${pointer}/message/key`);
      checkValues(outcome.message.key, outcome.message.values, `${pointer}/message/values`);
      checkMapping(outcome.message.values, `${pointer}/message/values`);
    }
    checkText(outcome.error, `${pointer}/error`);
    checkText(outcome.warning, `${pointer}/warning`);
    const formTarget = fields ?? formFields;
    (outcome.clear ?? []).forEach((name, i) => {
      if (!formTarget.has(name))
        report(
          `${pointer}/clear/${i}`,
          `form field "${name}" does not exist in ${fields ? 'this step' : 'any step of this screen'}`,
          closest(name, formTarget),
        );
    });
    for (const name of Object.keys(outcome.setFields ?? {})) {
      if (!formTarget.has(name))
        report(
          `${pointer}/setFields/${escapePointer(name)}`,
          `form field "${name}" does not exist in ${fields ? 'this step' : 'any step of this screen'}`,
          closest(name, formTarget),
        );
    }
    checkMapping(outcome.setFields, `${pointer}/setFields`, fields);
    // With a step, the field errors are for that step's fields (marked and focused there).
    const target = outcome.step !== undefined && screen.steps[outcome.step] ? stepFieldsOf(outcome.step) : fields;
    for (const [field, text] of Object.entries(outcome.fieldErrors ?? {})) {
      checkText(text, `${pointer}/fieldErrors/${field}`);
      if (target && !target.has(field)) {
        report(
          `${pointer}/fieldErrors/${field}`,
          `form field "${field}" does not exist in ${outcome.step !== undefined ? `step "${outcome.step}"` : 'this step'}`,
          closest(field, target),
        );
      }
    }
    if (outcome.step !== undefined && !screen.steps[outcome.step]) {
      report(`${pointer}/step`, `step "${outcome.step}" does not exist (steps: ${stepNames.join(', ')})`, closest(outcome.step, stepNames));
    }
    if (outcome.navigate) {
      const to = outcome.navigate.to;
      if (env.routesKnown && !allRoutes.some((route) => routeHas(route, to)))
        report(`${pointer}/navigate/to`, `no screen has a route for "${to}"`, closest(to, allRoutes));
      for (const part of ['params', 'query', 'stateParam', 'routerState'] as const) {
        checkMapping(outcome.navigate[part], `${pointer}/navigate/${part}`, fields);
      }
    }
    const verbs = ['step', 'navigate', 'redirect', 'authenticate', 'resubmit'].filter((v) => outcome[v as keyof Outcome] !== undefined);
    if (verbs.length > 1) report(pointer, `an outcome can do only one of step, navigate, redirect, authenticate, resubmit (has ${verbs.join(', ')})`);
  };
  const checkOutcomes = (outcomes: Outcomes | undefined, pointer: string, fields?: Set<string>) => {
    for (const [code, outcome] of Object.entries(outcomes ?? {})) checkOutcome(outcome, `${pointer}/${code}`, fields);
  };
  const checkContract = (
    operation: string,
    resultFrom: string | undefined,
    outcomes: Outcomes | undefined,
    pointer: string,
    say: typeof report,
    resultFromAt?: string,
  ) => contractProblems(project, operation, resultFrom, outcomes, pointer, say, resultFromAt);
  /** Every known result code of the operation has an outcome, or '*' covers the rest. */
  const checkResultCodes = (call: Partial<CallSpec>, pointer: string, background: boolean) => {
    if (call.operation === undefined || call.outcomes?.['*'] !== undefined) return;
    const missing = knownResultCodes(project, call.operation, call.resultFrom).filter(
      (code) => outcomeFor(call, code, project.outcomes, background).from === 'unhandled',
    );
    if (missing.length > 0) {
      report(
        call.outcomes ? `${pointer}/outcomes` : pointer,
        `result code${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${c}"`).join(', ')} of operation "${call.operation}" ${missing.length > 1 ? 'are' : 'is'} not handled: add ${missing.length > 1 ? 'them' : 'it'} to "outcomes" or add a "*" outcome`,
      );
    }
  };
  const checkCall = (call: Partial<CallSpec>, pointer: string, fields?: Set<string>, background = false) => {
    if (call.operation === undefined) return;
    (call.include ?? []).forEach((name, i) => {
      const names = Object.keys(project.outcomes.blocks);
      if (project.outcomesBroken) return;
      if (!project.outcomes.blocks[name])
        report(
          `${pointer}/include/${i}`,
          `unknown outcome block "${name}" (screens/${SHARED_OUTCOMES_FILE} has: ${names.join(', ') || 'none'})`,
          closest(name, names),
        );
    });
    const op = project.operations[call.operation];
    if (!op) {
      if (env.operationsKnown)
        report(
          `${pointer}/operation`,
          `unknown operation "${call.operation}" (no schemas/api/${call.operation}.json)`,
          closest(call.operation, Object.keys(project.operations)),
        );
    } else {
      const accepted = Object.keys((op.request?.properties as Record<string, unknown> | undefined) ?? {});
      const request = contractSchema(project, op, 'request');
      for (const [name, source] of Object.entries(call.body ?? {})) {
        if (!accepted.includes(name))
          report(
            `${pointer}/body/${escapePointer(name)}`,
            `operation "${call.operation}" takes no field "${name}" (it takes: ${accepted.join(', ') || 'nothing'})`,
            closest(name, accepted),
          );
        else if (source !== null && typeof source === 'object' && 'const' in source && typeof source.const === 'string') {
          const allowed = schemasAt(request, `/${escapePointer(name)}`).flatMap((node) => (Array.isArray(node.enum) ? node.enum.map(String) : []));
          if (allowed.length > 0 && !allowed.includes(source.const))
            report(
              `${pointer}/body/${escapePointer(name)}/const`,
              `operation "${call.operation}" takes no "${source.const}" as ${name} (it takes: ${allowed.join(', ')})`,
              closest(source.const, allowed),
            );
        }
      }
      const action = op.botCheckAction ?? op.operation;
      if (call.botCheckAction !== undefined && call.botCheckAction !== action) {
        report(
          `${pointer}/botCheckAction`,
          `the bot-check action of operation "${call.operation}" is "${action}" (schemas/api/${call.operation}.json): a token for "${call.botCheckAction}" would be refused`,
          action,
        );
      }
      for (const [name, source] of Object.entries(call.body ?? {})) {
        const field = typeof source === 'string' ? /^\/([^/]+)$/.exec(source)?.[1] : undefined;
        const values = field === undefined ? undefined : valuesOfSchema(fieldSchemas.get(field));
        const allowed = schemasAt(request, `/${escapePointer(name)}`).flatMap((node) => valuesOfSchema(node) ?? []);
        if (!values || allowed.length === 0) continue;
        for (const value of values.filter((v) => !allowed.includes(v))) {
          report(
            `${pointer}/body/${escapePointer(name)}`,
            `form field "${field}" can be "${value}", which operation "${call.operation}" does not take as ${name} (it takes: ${allowed.join(', ')})`,
            closest(value, allowed),
          );
        }
      }
      // A nested body ({"map": {...}}) has the fields of the request's sub-object.
      const nested = (mapping: Mapping | undefined, path: string, at: string) => {
        for (const [name, source] of Object.entries(mapping ?? {})) {
          if (source === null || typeof source !== 'object' || !('map' in source)) continue;
          const sub = `${path}/${escapePointer(name)}`;
          const offered = [...new Set(schemasAt(request, sub).flatMap((node) => Object.keys((node.properties as Record<string, unknown> | undefined) ?? {})))];
          if (offered.length === 0) continue;
          for (const key of Object.keys(source.map)) {
            if (!offered.includes(key))
              report(
                `${at}/${escapePointer(name)}/map/${escapePointer(key)}`,
                `operation "${call.operation}" takes no field "${key}" in ${sub.slice(1)} (it takes: ${offered.join(', ')})`,
                closest(key, offered),
              );
          }
          nested(source.map, sub, `${at}/${escapePointer(name)}/map`);
        }
      };
      nested(call.body, '', `${pointer}/body`);
      if (!project.outcomesBroken) checkResultCodes(call, pointer, background);
      checkContract(
        call.operation,
        call.resultFrom,
        call.outcomes,
        `${pointer}/outcomes`,
        report,
        call.resultFrom !== undefined ? `${pointer}/resultFrom` : undefined,
      );
    }
    checkMapping(call.body, `${pointer}/body`, fields);
    checkOutcomes(call.outcomes, `${pointer}/outcomes`, fields);
  };
  const checkBlocks = (blocks: Block[] | undefined, pointer: string, fields?: Set<string>) => {
    (blocks ?? []).forEach((block, i) => {
      const at = `${pointer}/${i}`;
      checkCondition(block.when, `${at}/when`);
      checkCondition(block.disabledWhen, `${at}/disabledWhen`);
      checkText(block.text, `${at}/text`);
      checkText(block.title, `${at}/title`);
      (block.lines ?? []).forEach((line, j) => {
        if (typeof line === 'string' || !('text' in line)) return checkText(line, `${at}/lines/${j}`);
        checkText(line.text, `${at}/lines/${j}/text`);
        checkSource(line.email, `${at}/lines/${j}/email`);
      });
      if (block.to && env.routesKnown && !allRoutes.some((route) => routeHas(route, block.to ?? '')))
        report(`${at}/to`, `no screen has a route for "${block.to}"`, closest(block.to, allRoutes));
      if (block.type === 'component' && !(contentNames as readonly string[]).includes(block.name ?? '')) {
        report(
          `${at}/name`,
          `unknown content component "${block.name ?? ''}" (registered: ${contentNames.join(', ') || 'none'})`,
          closest(block.name ?? '', contentNames),
        );
      }
      if (block.call) checkCall(block.call, `${at}/call`, fields);
      if (block.outcome) checkOutcome(block.outcome, `${at}/outcome`, fields);
      const needs: Record<string, boolean> = {
        link: block.to !== undefined || block.href !== undefined,
        button: block.call !== undefined || block.outcome !== undefined,
        card: block.title !== undefined || block.lines !== undefined,
      };
      if (needs[block.type] === false)
        report(
          at,
          `a ${block.type} block needs ${block.type === 'link' ? '"to" or "href"' : block.type === 'button' ? '"call" or "outcome"' : '"title" or "lines"'}`,
        );
      if (['heading', 'text', 'link', 'button', 'spinner'].includes(block.type) && block.text === undefined) report(at, `a ${block.type} block needs "text"`);
    });
  };
  const checkUi = (step: StepSpec, stepName: string, fields: Set<string>) => {
    const at = `/steps/${stepName}/uiSchema`;
    const schema = (entry.schemas[stepName] ?? step.schema ?? {}) as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    checkOrder((step.uiSchema ?? {})['ui:order'], Object.keys(properties), `${at}/ui:order`, report);
    const walk = (node: unknown, pointer: string, field?: string, fieldSchema?: Record<string, unknown>) => {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
      const entries = node as Record<string, unknown>;
      if (field !== undefined) {
        const widget = typeof entries['ui:widget'] === 'string' ? entries['ui:widget'] : undefined;
        const optionsOf =
          widget === undefined || (builtInWidgetNames as readonly string[]).includes(widget)
            ? ''
            : (widgetNames as readonly string[]).includes(widget)
              ? widget
              : undefined;
        if (optionsOf !== undefined) {
          const refs = checkWidgetOptions(entries['ui:options'] ?? {}, optionsOf, `${pointer}/ui:options`, env.widgetOptions, report);
          for (const ref of [...refs, ...defaultOptionRefs(entries['ui:options'], optionsOf, `${pointer}/ui:widget`, env.widgetOptions)]) {
            if (ref.kind === 'context' && !env.names.has(ref.name))
              report(ref.pointer, `context value "${ref.name}" is never set on this screen (set: ${contextHint()})`, closest(ref.name, env.names.keys()));
            if (ref.kind === 'field' && !fields.has(ref.name))
              report(ref.pointer, `form field "${ref.name}" does not exist in this step`, closest(ref.name, fields));
          }
        }
        checkMessages(entries['ui:messages'], `${pointer}/ui:messages`, report);
        const subProperties = Object.keys((fieldSchema?.properties as Record<string, unknown> | undefined) ?? {});
        if (entries['ui:order'] !== undefined) checkOrder(entries['ui:order'], subProperties, `${pointer}/ui:order`, report);
      }
      for (const [key, value] of Object.entries(entries)) {
        const p = `${pointer}/${escapePointer(key)}`;
        if (TEXT_UI_KEYS.includes(key) && typeof value === 'string') checkKey(value, p);
        else if (key === 'ui:enumNames' && Array.isArray(value)) value.forEach((v, i) => typeof v === 'string' && checkKey(v, `${p}/${i}`));
        // A key prefix: one label per value of the field's enum ('mfa.methods' -> mfa.methods.TOTP ...).
        else if (key === 'ui:enumNames' && typeof value === 'string') {
          const keys = enumNameKeys(value, fieldSchema);
          if (keys.length === 0) report(p, `"ui:enumNames" as a key prefix needs a field with an enum`);
          keys.forEach((k) => checkKey(k, p));
        } else if (key === 'ui:messages' && value && typeof value === 'object')
          Object.entries(value).forEach(([k, v]) => typeof v === 'string' && checkKey(v, `${p}/${escapePointer(k)}`));
        else if (key === 'ui:hiddenWhen' || key === 'ui:readonlyWhen') checkCondition(value as Condition, p);
        else if (key === 'ui:widget') {
          if (
            typeof value !== 'string' ||
            (!(widgetNames as readonly string[]).includes(value) && !(builtInWidgetNames as readonly string[]).includes(value))
          ) {
            report(
              p,
              `unknown widget "${String(value)}" (registered: ${widgetNames.join(', ')}; rjsf built-ins: text, password, email, checkbox, select, radio, textarea, hidden ...)`,
              closest(String(value), [...widgetNames, ...builtInWidgetNames]),
            );
          }
        } else if (!key.startsWith('ui:')) {
          const names = field === undefined ? [...fields] : Object.keys((fieldSchema?.properties as Record<string, unknown> | undefined) ?? {});
          // An object field without its own properties (free-form) takes any entry.
          const known = field === undefined || fieldSchema?.properties !== undefined ? names.includes(key) : true;
          if (!known) {
            const uiLike = /^ui/i.test(key) ? closest(key, project.uiKeys?.field ?? []) : undefined;
            report(
              p,
              uiLike ? `unknown UI key "${key}"` : `form field "${key}" does not exist in ${field === undefined ? "this step's schema" : `field "${field}"`}`,
              uiLike ?? closest(key, names),
            );
          }
          const sub = field === undefined ? properties[key] : ((fieldSchema?.properties as Record<string, Record<string, unknown>> | undefined) ?? {})[key];
          walk(value, p, field === undefined ? key : `${field}.${key}`, sub);
        }
      }
    };
    walk(step.uiSchema, at);
  };

  checkKey(screen.title, '/title');
  if (!screen.steps[screen.initialStep])
    report('/initialStep', `step "${screen.initialStep}" does not exist (steps: ${stepNames.join(', ')})`, closest(screen.initialStep, stepNames));
  for (const [name, spec] of Object.entries(screen.queryMessages ?? {})) {
    checkKey(spec.key, `/queryMessages/${name}/key`);
  }
  if (screen.stateParam?.otherwise) checkOutcome(screen.stateParam.otherwise, '/stateParam/otherwise');
  const stateFields = Object.keys(screen.stateParam?.fields ?? {});
  (screen.stateParam?.required ?? []).forEach((name, i) => {
    if (!stateFields.includes(name))
      report(`/stateParam/required/${i}`, `"${name}" is not a field of the state parameter (fields: ${stateFields.join(', ')})`, closest(name, stateFields));
  });
  (screen.routes ?? []).forEach((route, i) => route.title !== undefined && checkKey(route.title, `/routes/${i}/title`));
  for (const [name, field] of Object.entries(screen.stateParam?.fields ?? {})) {
    const list = listReference(field.enum);
    if (list !== undefined) checkList(list, `/stateParam/fields/${name}/enum`);
  }
  (screen.onEnter ?? []).forEach((action, i) => {
    checkCondition(action.when, `/onEnter/${i}/when`);
    if (action.outcome) checkOutcome(action.outcome, `/onEnter/${i}/outcome`);
    checkCall(action, `/onEnter/${i}`, undefined, true);
  });
  (screen.timers ?? []).forEach((timer, i) => {
    checkCondition(timer.when, `/timers/${i}/when`);
    checkOutcome(timer.outcome, `/timers/${i}/outcome`);
  });
  for (const [stepName, step] of Object.entries(screen.steps)) {
    const at = `/steps/${stepName}`;
    // A schema whose $ref failed is reported at the $ref; its field names still stand, so the UI
    // schema and the body are not reported again for fields that do exist.
    const schema = entry.schemas[stepName] ?? step.schema;
    const fields = new Set(Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {}));
    checkText(step.title, `${at}/title`);
    checkBlocks(step.blocks?.before, `${at}/blocks/before`, step.schema ? fields : undefined);
    checkBlocks(step.blocks?.after, `${at}/blocks/after`, step.schema ? fields : undefined);
    checkMapping(step.initialData, `${at}/initialData`);
    for (const [name, source] of Object.entries(step.initialData ?? {})) {
      const values = valuesOfSchema(fieldSchemas.get(name));
      if (values && source !== null && typeof source === 'object' && 'const' in source && typeof source.const === 'string' && !values.includes(source.const)) {
        report(
          `${at}/initialData/${escapePointer(name)}/const`,
          `form field "${name}" is never "${source.const}" (its values: ${values.join(', ')})`,
          closest(source.const, values),
        );
      }
      if (step.schema && !fields.has(name))
        report(
          `${at}/initialData/${escapePointer(name)}`,
          `form field "${name}" does not exist in this step: its initial value goes nowhere`,
          closest(name, fields),
        );
    }
    if (step.schema) {
      checkUi(step, stepName, fields);
      checkSchemaNames(step.schema, `${at}/schema`, report);
      const inlined = entry.schemas[stepName];
      const failure = inlined ? compileProblem(env.files, inlined) : undefined;
      if (failure) {
        const located = locateCompileProblem(step.schema, failure);
        report(`${at}/schema${located.pointer}`, `the form's JSON Schema is not valid: ${failure}`, located.suggestion);
      }
    }
    const submits = step.submit === undefined ? [] : Array.isArray(step.submit) ? step.submit : [step.submit];
    submits.forEach((submit, i) => {
      const p = Array.isArray(step.submit) ? `${at}/submit/${i}` : `${at}/submit`;
      if (!step.schema) report(p, 'a submit needs a form: this step has no schema');
      checkCondition(submit.when, `${p}/when`);
      checkCondition(submit.disabledWhen, `${p}/disabledWhen`);
      checkText(submit.label, `${p}/label`);
      checkCall(submit, p, fields);
      if (submit.outcome) checkOutcome(submit.outcome, `${p}/outcome`, fields);
    });
    (step.probes ?? []).forEach((probe, i) => {
      if (!fields.has(probe.field)) report(`${at}/probes/${i}/field`, `form field "${probe.field}" does not exist in this step`, closest(probe.field, fields));
      checkCall(probe, `${at}/probes/${i}`, fields, true);
    });
  }
  checkReachable(screen, report);
  // The context: every value read is set somewhere (a declared context, a route, the state parameter,
  // a navigation's history state, an assign).
  for (const read of env.facts.reads) {
    if (!env.names.has(read.name))
      report(read.pointer, `context value "${read.name}" is never set on this screen (set: ${contextHint()})`, closest(read.name, env.names.keys()));
  }
  // ... and every value set is read: a value nothing reads is most often a misspelt name.
  // A misspelt read already says "never set": the value it meant is not reported again as unread.
  const meant = new Set(env.facts.reads.filter((r) => !env.names.has(r.name)).map((r) => closest(r.name, env.names.keys())));
  const unread = (name: string, pointer: string) => {
    if (!env.reads.has(name) && !meant.has(name))
      report(pointer, `context value "${name}" is set but nothing on this screen reads it`, closest(name, env.reads));
  };
  env.facts.assigns.forEach((a) => unread(a.name, a.pointer));
  Object.keys(screen.context ?? {}).forEach((name) => unread(name, `/context/${escapePointer(name)}`));
  (screen.routes ?? []).forEach((route, i) => Object.keys(route.context ?? {}).forEach((name) => unread(name, `/routes/${i}/context/${escapePointer(name)}`)));
}

/** The {{placeholders}} of a key's en-us text (with count for a plural group), or undefined when it has none. */
function placeholdersOf(locale: Record<string, unknown> | undefined, key: string): string[] | undefined {
  if (!locale) return undefined;
  const read = (k: string) =>
    k.split('.').reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), locale);
  const own = read(key);
  const plural = ['zero', 'one', 'two', 'few', 'many', 'other'].map((form) => read(`${key}_${form}`)).filter((t): t is string => typeof t === 'string');
  const texts = [...(typeof own === 'string' ? [own] : []), ...plural];
  if (texts.length === 0) return undefined;
  const names = new Set(texts.flatMap((text) => [...text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)].map((m) => m[1] ?? '')));
  if (plural.length > 0) names.add('count');
  return [...names];
}

/** The values an inlined field schema lists (its enum, or its allOf's). */
function enumOfSchema(schema: unknown): string[] | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const node = schema as { enum?: unknown; allOf?: unknown[]; const?: unknown };
  if (Array.isArray(node.enum)) return node.enum.map(String);
  return Array.isArray(node.allOf) ? node.allOf.map(enumOfSchema).find((e) => e !== undefined) : undefined;
}

/** The values a field can take: its enum (or its allOf's), or its items' for a multiple choice. */
function valuesOfSchema(schema: unknown): string[] | undefined {
  const own = enumOfSchema(schema);
  if (own) return own;
  const items = schema !== null && typeof schema === 'object' ? (schema as { items?: unknown }).items : undefined;
  return enumOfSchema(items);
}

/** A state-parameter field's accepted values: its list, or the business list it names. */
function listOrEnum(value: unknown, lists: Lists): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  const name = listReference(value);
  return name === undefined ? undefined : lists[name];
}

/** Options a widget reads by default when ui:options leaves them out (e.g. duo's urlFrom: duoUrl). */
function defaultOptionRefs(options: unknown, widget: string, pointer: string, loaded: WidgetOptionSchemas): OptionReference[] {
  const declared = (loaded.schemas[widget]?.properties ?? {}) as Record<string, { refersTo?: unknown; default?: unknown }>;
  const given = options !== null && typeof options === 'object' ? (options as Record<string, unknown>) : {};
  return Object.entries(declared)
    .filter(([name, spec]) => !(name in given) && (spec.refersTo === 'context' || spec.refersTo === 'field') && typeof spec.default === 'string')
    .map(([, spec]) => ({ kind: spec.refersTo as 'context' | 'field', name: spec.default as string, pointer }));
}

/** JSON Schema draft-07's keywords with the validators plugin's: what a misspelt one is compared with. */
const SCHEMA_KEYWORDS = [
  ...MESSAGE_KEYWORDS.filter((k) => k !== 'false schema'),
  '$ref',
  '$id',
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'definitions',
  'properties',
  'patternProperties',
  'items',
  'then',
  'else',
  'allOf',
  'contentMediaType',
  'contentEncoding',
];

/** Where in the file's own schema ajv's complaint is (an unknown keyword or format), and what was meant. */
function locateCompileProblem(schema: unknown, message: string): { pointer: string; suggestion?: string } {
  const keyword = /unknown keyword: "([^"]+)"/.exec(message)?.[1];
  const format = /unknown format "([^"]+)"/.exec(message)?.[1];
  let found: string | undefined;
  const visit = (node: unknown, pointer: string) => {
    if (found !== undefined || node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const at = `${pointer}/${escapePointer(key)}`;
      if ((keyword !== undefined && key === keyword) || (format !== undefined && key === 'format' && value === format)) {
        found = at;
        return;
      }
      if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') visit(value, at);
    }
  };
  visit(schema, '');
  const suggestion = keyword !== undefined ? closest(keyword, SCHEMA_KEYWORDS) : format !== undefined ? closest(format, formatNames) : undefined;
  return { pointer: found ?? '', ...(suggestion ? { suggestion } : {}) };
}

/** Step names an outcome, call or block list can lead to ('step' verbs anywhere inside). */
function stepTargets(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => stepTargets(item, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      // A form's JSON Schema and UI schema hold no outcomes; a field may well be named "step".
      if (key === 'schema' || key === 'uiSchema') continue;
      if (key === 'step' && typeof value === 'string') out.add(value);
      else stepTargets(value, out);
    }
  }
  return out;
}

/** Every step can be reached from initialStep (screen-level outcomes may lead to any step at any time). */
function checkReachable(screen: ScreenFile, report: (pointer: string, message: string) => void): void {
  if (!screen.steps[screen.initialStep]) return;
  const global = stepTargets([screen.stateParam?.otherwise, screen.onEnter, screen.timers], new Set());
  const seen = new Set<string>([screen.initialStep, ...global]);
  const queue = [...seen];
  while (queue.length > 0) {
    const name = queue.shift() ?? '';
    for (const next of stepTargets(screen.steps[name] ?? {}, new Set())) {
      if (!seen.has(next) && screen.steps[next]) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  for (const name of Object.keys(screen.steps)) {
    if (!seen.has(name)) report(`/steps/${name}`, `step "${name}" cannot be reached from initialStep "${screen.initialStep}": no outcome leads to it`);
  }
}

/** Every check the build, the tests and `npm run screens:check` run. */
/**
 * The check's result: `problems` (errors: the build and a save refuse them; exit code 1) and
 * `pending` (translations other languages lack: the app shows en-us there; listed, not blocking).
 */
export interface CheckResult {
  project: Project;
  problems: Problem[];
  pending: PendingTranslation[];
}

export function checkProject(dirs: ProjectDirs, options: CheckOptions = {}): CheckResult {
  const { project, problems, files } = loadProject(dirs, options);
  const owners = new Map<string, string>();
  for (const { screen, file } of project.screens) {
    (screen.routes ?? []).forEach((route, i) => {
      const owner = owners.get(route.path);
      if (owner) problems.push({ file, pointer: `/routes/${i}/path`, message: `route "${route.path}" is already used by ${owner}` });
      else owners.set(route.path, file);
    });
  }
  // A screen that failed its meta-schema still has routes others lead to: they are not reported missing.
  for (const screen of project.unchecked ?? []) {
    for (const route of Array.isArray(screen.routes) ? screen.routes : [])
      if (typeof route?.path === 'string' && !owners.has(route.path)) owners.set(route.path, '');
  }
  const allRoutes = [...owners.keys()];
  const sharedFile = `screens/${SHARED_OUTCOMES_FILE}`;
  const broken = project.broken ?? [];
  // A screen file that does not parse has routes nobody knows: "no route for" elsewhere would be its echo.
  const routesKnown = (project.unparsed ?? []).length === 0;
  const operationsKnown = !broken.some((file) => file.includes('/api/'));
  const widgetOptions = loadWidgetOptions(widgetNames);
  problems.push(...widgetOptions.problems);

  const facts = new Map(
    project.screens.map((entry) => [entry.file, files.memo(`facts:${entry.file}`, [entry.screen], () => factsOf(entry.screen, entry.file))]),
  );
  const sharedFacts = files.memo('facts:shared', [project.outcomes], () =>
    Object.fromEntries(Object.entries(project.outcomes.blocks).map(([name, block]) => [name, factsOf(block, sharedFile, `/blocks/${escapePointer(name)}`)])),
  );
  const sharedTop = files.memo('facts:shared-top', [project.outcomes], () => factsOf(project.outcomes, sharedFile));
  const navigations: Navigation[] = [...[...facts.values()].flatMap((f) => f.navigations), ...sharedTop.navigations];
  const incoming = (screen: ScreenFile) => navigations.filter((nav) => targetsOf(nav.to, [{ screen }]).length > 0);

  // Which operations include each shared block (its codes and $response reads are checked against them).
  const blockOperations = new Map<string, Set<string>>();
  for (const entry of project.screens) {
    const visit = (node: unknown) => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (node === null || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (typeof n.operation === 'string' && Array.isArray(n.include)) {
        for (const name of n.include)
          if (typeof name === 'string') (blockOperations.get(name) ?? blockOperations.set(name, new Set()).get(name))?.add(n.operation);
      }
      for (const [key, value] of Object.entries(n)) if (key !== 'schema' && key !== 'uiSchema') visit(value);
    };
    visit(entry.screen);
  }

  const names = new Map<string, Map<string, string>>();
  for (const entry of project.screens) {
    const own = facts.get(entry.file) ?? factsOf(entry.screen, entry.file);
    const screenFacts = own;
    const set = contextNames(entry.screen, own, incoming(entry.screen), project.outcomes, sharedFacts);
    names.set(entry.file, set);
    const reads = readsOf(entry, own, sharedFacts, widgetOptions);
    const assignSources = new Map<string, unknown[]>();
    for (const a of [...own.assigns, ...own.includes.flatMap((b) => sharedFacts[b]?.assigns ?? [])]) {
      (assignSources.get(a.name) ?? assignSources.set(a.name, []).get(a.name))?.push(a.source);
    }
    // The same screen among the same facts has the same problems: only the screens an edit touches are checked again.
    const deps = [
      entry,
      project.operations,
      project.outcomes,
      project.outcomesBroken,
      project.lists,
      project.brokenLocales?.join(),
      ...Object.values(project.locales),
      allRoutes.join('\n'),
      [...set.keys()].sort().join(),
      [...reads].sort().join(),
      JSON.stringify([...assignSources]),
      routesKnown,
      operationsKnown,
    ];
    problems.push(
      ...files.memo(`check:${entry.file}`, deps, () => {
        const own: Problem[] = [];
        checkScreen(entry, project, allRoutes, own, {
          files,
          names: set,
          reads,
          assignSources,
          facts: screenFacts,
          widgetOptions,
          routesKnown,
          operationsKnown,
        });
        return own;
      }),
    );
    // A shared block reads the context and the form of the screen that includes it.
    const fieldsOfScreen = new Set(
      Object.values(entry.schemas).flatMap((schema) => Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {})),
    );
    for (const block of new Set(own.includes)) {
      for (const ref of sharedFacts[block]?.formRefs ?? []) {
        if (!fieldsOfScreen.has(ref.name))
          problems.push({
            file: sharedFile,
            pointer: ref.pointer,
            message: `form field "${ref.name}" does not exist on screen "${entry.screen.id}", which includes this block`,
          });
      }
      for (const read of sharedFacts[block]?.reads ?? []) {
        if (!set.has(read.name))
          problems.push({
            file: sharedFile,
            pointer: read.pointer,
            message: `context value "${read.name}" is never set on screen "${entry.screen.id}", which includes this block`,
          });
      }
    }
  }
  if (routesKnown) checkHandoffs(project, navigations, facts, sharedFacts, widgetOptions, problems);
  checkSharedOutcomes(project, allRoutes, problems, routesKnown, blockOperations);
  const en = project.locales['en-us'];
  if (!en) problems.push({ file: 'locales/en-us', pointer: '', message: 'the default language en-us is missing' });
  const unique = dedupe(problems);
  const localesDir = files.rel(resolve(project.root, dirs.localesDir ?? 'locales'));
  const pending = files
    .memo('pending', [...Object.values(project.locales), project.brokenLocales?.join()], () => pendingTranslations(project, localesDir))
    .map((p) => ({ ...p }));
  if (options.locate !== false) {
    locateProblems(project.root, unique, files);
    locateProblems(project.root, pending as unknown as Problem[], files);
  }
  return { project, problems: unique, pending };
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}\u0000${p.pointer}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Context names a screen reads: sources, conditions, the shared blocks it includes, its widgets' options. */
function readsOf(entry: LoadedScreen, own: FileFacts, sharedFacts: Record<string, FileFacts>, widgetOptions: WidgetOptionSchemas): Set<string> {
  const reads = new Set(own.reads.map((r) => r.name));
  for (const block of own.includes) (sharedFacts[block]?.reads ?? []).forEach((r) => reads.add(r.name));
  for (const step of Object.values(entry.screen.steps)) {
    for (const [, ui] of Object.entries(step.uiSchema ?? {})) {
      if (ui === null || typeof ui !== 'object' || Array.isArray(ui)) continue;
      const u = ui as Record<string, unknown>;
      const widget = typeof u['ui:widget'] === 'string' && (widgetNames as readonly string[]).includes(u['ui:widget']) ? u['ui:widget'] : undefined;
      if (!widget) continue;
      const declared = (widgetOptions.schemas[widget]?.properties ?? {}) as Record<string, { refersTo?: unknown; default?: unknown }>;
      const given = (u['ui:options'] ?? {}) as Record<string, unknown>;
      for (const [name, spec] of Object.entries(declared)) {
        const value = given[name] ?? spec.default;
        if (spec.refersTo === 'context' && typeof value === 'string') reads.add(value);
      }
    }
  }
  return reads;
}

/**
 * What a navigation hands the next screen: state-parameter keys its "stateParam" declares, history
 * state ("routerState") it reads, {name} placeholders of "to" with their "params", and a
 * ?message= its "queryMessages" offers.
 */
function checkHandoffs(
  project: Project,
  navigations: Navigation[],
  facts: Map<string, FileFacts>,
  sharedFacts: Record<string, FileFacts>,
  widgetOptions: WidgetOptionSchemas,
  problems: Problem[],
): void {
  const report = (file: string, pointer: string, message: string, suggestion?: string) =>
    problems.push({ file, pointer, message: suggestion ? `${message}; did you mean "${suggestion}"?` : message, ...(suggestion ? { suggestion } : {}) });
  const readsCache = new Map<string, Set<string>>();
  for (const nav of navigations) {
    const placeholders = [...nav.to.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
    nav.params.forEach((name) => {
      if (!placeholders.includes(name))
        report(nav.file, `${nav.pointer}/params/${escapePointer(name)}`, `"to" has no {${name}} placeholder for this value`, closest(name, placeholders));
    });
    placeholders.forEach((name) => {
      if (!nav.params.includes(name)) report(nav.file, `${nav.pointer}/to`, `{${name}} in "to" has no value in "params"`, closest(name, nav.params));
    });
    const path = nav.to.replace(/\{[^}]+\}/g, 'x');
    for (const target of targetsOf(path, project.screens)) {
      const id = target.screen.id;
      const fields = Object.keys(target.screen.stateParam?.fields ?? {});
      for (const key of nav.stateParam) {
        if (!fields.includes(key)) {
          report(
            nav.file,
            `${nav.pointer}/stateParam/${escapePointer(key)}`,
            target.screen.stateParam
              ? `screen "${id}" does not read "${key}" from its state parameter (its fields: ${fields.join(', ')})`
              : `screen "${id}" takes no state parameter`,
            closest(key, fields),
          );
        }
      }
      let reads = readsCache.get(target.file);
      if (!reads) {
        reads = readsOf(target, facts.get(target.file) ?? factsOf(target.screen, target.file), sharedFacts, widgetOptions);
        readsCache.set(target.file, reads);
      }
      for (const key of nav.routerState) {
        if (!reads.has(key))
          report(
            nav.file,
            `${nav.pointer}/routerState/${escapePointer(key)}`,
            `screen "${id}" does not read "${key}" (it reads: ${[...reads].sort().join(', ') || 'nothing'})`,
            closest(key, reads),
          );
      }
      const targetFacts = facts.get(target.file);
      const queryNames = ['return_to', 'redirect_uri', ...(target.screen.queryMessages ? ['message'] : []), ...(targetFacts?.queries ?? [])];
      for (const key of Object.keys(nav.query)) {
        if (!queryNames.includes(key))
          report(
            nav.file,
            `${nav.pointer}/query/${escapePointer(key)}`,
            `screen "${id}" reads no query parameter "${key}" (it reads: ${queryNames.join(', ')})`,
            closest(key, queryNames),
          );
      }
      const message = nav.query.message;
      if (message !== null && typeof message === 'object' && typeof (message as { const?: unknown }).const === 'string') {
        const name = (message as { const: string }).const;
        const offered = Object.keys(target.screen.queryMessages ?? {});
        if (!offered.includes(name))
          report(
            nav.file,
            `${nav.pointer}/query/message/const`,
            `screen "${id}" has no message "${name}" (its queryMessages: ${offered.join(', ') || 'none'})`,
            closest(name, offered),
          );
      }
    }
  }
}

/** The shared outcomes' texts, routes and actions exist (their shape the meta-schema has checked). */
function checkSharedOutcomes(
  project: Project,
  allRoutes: string[],
  problems: Problem[],
  routesKnown = true,
  blockOperations = new Map<string, Set<string>>(),
): void {
  const file = `screens/${SHARED_OUTCOMES_FILE}`;
  const report = (pointer: string, message: string, suggestion?: string) =>
    problems.push({ file, pointer, message: suggestion ? `${message}; did you mean "${suggestion}"?` : message, ...(suggestion ? { suggestion } : {}) });
  const key = (k: string | undefined, pointer: string) => {
    if (k === undefined) return;
    const missing =
      project.locales[DEFAULT_LANGUAGE] && hasKey(project.locales[DEFAULT_LANGUAGE], k)
        ? []
        : Object.keys(project.locales).filter((lang) => !hasKey(project.locales[lang] ?? {}, k));
    if (missing.length > 0)
      report(pointer, `i18n key "${k}" is missing in ${missing.map((l) => `locales/${l}`).join(', ')}`, closest(k, localeKeys(project, 'en-us')));
  };
  const text = (t: TextRef | undefined, pointer: string) => key(typeof t === 'string' ? t : t?.key, typeof t === 'string' ? pointer : `${pointer}/key`);
  const outcome = (o: Outcome, at: string) => {
    text(o.error, `${at}/error`);
    text(o.warning, `${at}/warning`);
    key(o.message?.key, `${at}/message/key`);
    (o.actions ?? []).forEach((name, i) => {
      if (!(ACTION_NAMES as readonly string[]).includes(name))
        report(`${at}/actions/${i}`, `unknown action "${name}" (registered: ${ACTION_NAMES.join(', ')})`, closest(name, ACTION_NAMES));
    });
    if (o.step !== undefined) report(`${at}/step`, 'a shared outcome cannot lead to a step: steps belong to one screen');
    const to = o.navigate?.to;
    if (to !== undefined && routesKnown && !allRoutes.some((route) => routeHas(route, to)))
      report(`${at}/navigate/to`, `no screen has a route for "${to}"`, closest(to, allRoutes));
  };
  const { defaults, visitorDefaults, unhandled, blocks } = project.outcomes;
  // $env sources name what the host provides.
  const envReads = (node: unknown, pointer: string): void => {
    if (typeof node === 'string') {
      const name = /^\$env\/([^/]*)/.exec(node)?.[1];
      if (name !== undefined && !(ENV_SOURCES as readonly string[]).includes(name))
        report(pointer, `unknown "$env/${name}" (known: ${ENV_SOURCES.join(', ')})`, closest(name, ENV_SOURCES) && `$env/${closest(name, ENV_SOURCES)}`);
    } else if (Array.isArray(node)) node.forEach((item, i) => envReads(item, `${pointer}/${i}`));
    else if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) envReads(v, `${pointer}/${escapePointer(k)}`);
  };
  envReads(project.outcomes, '');
  // A default applies to every call: its code must be one some call can end in.
  const anyCode = new Set(Object.keys(project.operations).flatMap((op) => resultCodesOf(project, op).codes));
  for (const [part, table] of [
    ['defaults', defaults],
    ['visitorDefaults', visitorDefaults],
  ] as const) {
    for (const code of Object.keys(table)) {
      if (!isTransportCode(code) && !anyCode.has(code))
        report(
          `/${part}/${escapePointer(code)}`,
          `no call ends in "${code}": not a transport code (${TRANSPORT_CODES.join(', ')}, HTTP_<status>) nor one an operation lists`,
          closest(code, [...TRANSPORT_CODES, ...anyCode]),
        );
    }
  }
  for (const [code, o] of Object.entries(defaults)) outcome(o, `/defaults/${code}`);
  for (const [code, o] of Object.entries(visitorDefaults)) outcome(o, `/visitorDefaults/${code}`);
  outcome(unhandled, '/unhandled');
  for (const [name, table] of Object.entries(blocks)) {
    for (const [code, o] of Object.entries(table)) outcome(o, `/blocks/${name}/${code}`);
    // Codes and answers against the operations of the calls that include the block: one of them must answer each.
    const ops = [...(blockOperations.get(name) ?? [])];
    if (ops.length === 0) continue;
    const byPointer = new Map<string, Array<{ message: string; suggestion?: string }>>();
    for (const op of ops) {
      contractProblems(project, op, undefined, table, `/blocks/${escapePointer(name)}`, (pointer, message, suggestion) => {
        (byPointer.get(pointer) ?? byPointer.set(pointer, []).get(pointer))?.push({ message, suggestion });
      });
    }
    for (const [pointer, found] of byPointer) {
      if (found.length < ops.length) continue; // some including operation answers it
      const first = found[0];
      if (first)
        report(
          pointer,
          `${first.message}${ops.length > 1 ? ` (nor does ${ops.filter((o) => !first.message.includes(`"${o}"`)).join(', ')})` : ''}`,
          first.suggestion,
        );
    }
  }
}

/** Adds line and column (of the pointer's node) to problems that have none yet. */
export function locateProblems(root: string, problems: Problem[], files?: CatalogueFiles): void {
  const finder = new PositionFinder((file) => {
    try {
      return file.endsWith('.json') ? (files ? files.read(file) : readFileSync(join(root, file), 'utf8')) : undefined;
    } catch {
      return undefined;
    }
  });
  for (const problem of problems) {
    if (problem.line !== undefined) continue;
    const position = finder.find(problem.file, problem.pointer);
    if (position) Object.assign(problem, position);
  }
}

/** "screens/login.json:12:7 at /steps/credentials/uiSchema/email/ui:widget: unknown widget …" */
export function formatProblem(problem: Problem): string {
  const position = problem.line !== undefined ? `:${problem.line}:${problem.column ?? 1}` : '';
  return `${problem.file}${position}${problem.pointer ? ` at ${problem.pointer}` : ''}: ${problem.message}`;
}

/** i18n keys written literally in code (t('x.y')) must exist too: components carry no English. */
export function checkCodeKeys(root: string, locales: Project['locales'], dirs = ['src', 'widgets'], brokenLocales: readonly string[] = []): Problem[] {
  const problems: Problem[] = [];
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
          // Other languages fall back to en-us: a key they lack is a pending translation, not an error.
          const locale = locales[DEFAULT_LANGUAGE];
          // A locale file that does not parse is reported once, by loadProject.
          if (!locale || brokenLocales.includes(`${DEFAULT_LANGUAGE}/${key.split('.')[0]}`)) continue;
          if (!hasKey(locale, key))
            problems.push({ file: `${rel(root, path)}:${line}`, pointer: '', message: `i18n key "${key}" is missing in locales/${DEFAULT_LANGUAGE}` });
        }
      }
    }
  };
  for (const dir of dirs) visit(join(root, dir));
  return problems;
}
