import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import { ACTION_NAMES } from '../../src/engine/action-names';
import { ENV_FLAGS, flagsOf, parseFlag } from '../../src/engine/conditions';
import { outcomeFor } from '../../src/engine/outcomes';
import type { Block, CallSpec, Condition, Mapping, Outcome, Outcomes, ScreenFile, SharedOutcomes, Source, StepSpec, TextRef } from '../../src/engine/types';
import { builtInWidgetNames, contentNames, widgetNames } from '../../widgets/widget-names';
import { enumNameKeys, listReference, listsInCondition, loadLists, type Lists } from './lists';
import { jsonSyntaxError, PositionFinder } from './positions';
import { inlineRefs, RefError } from './refs';
import { closest, flattenKeys } from './suggest';
import { routeMatches } from '../../src/engine/route-match';

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
}

/** Where the shared outcomes live, beside the screens. */
export const SHARED_OUTCOMES_FILE = 'shared/outcomes.json';
const NO_SHARED_OUTCOMES: SharedOutcomes = { defaults: {}, visitorDefaults: {}, blocks: {}, unhandled: { error: 'common.errors.unexpected', report: true } };

export interface ProjectDirs {
  root: string;
  screensDir?: string;
  localesDir?: string;
  schemasDir?: string;
}

const rel = (root: string, file: string) => file.slice(root.length + 1) || file;

function readJson(file: string, root: string, problems: Problem[]): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push({ file: rel(root, file), pointer: '', message: `cannot read: ${(error as Error).message}` });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    // JSON.parse names no line; jsonc-parser finds the same error with its position.
    const syntax = jsonSyntaxError(text);
    const reason = syntax ? syntax.message : (error as Error).message;
    problems.push({ file: rel(root, file), pointer: '', message: `invalid JSON: ${reason}`, ...(syntax ? { line: syntax.line, column: syntax.column } : {}) });
    return undefined;
  }
}

const jsonFiles = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')).sort().map((name) => join(dir, name)) : [];

function describeAjvError(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown property "${String(p.additionalProperty)}"`;
    case 'required':
      return `missing required property "${String(p.missingProperty)}"`;
    case 'enum':
      return `must be one of ${JSON.stringify(p.allowedValues)}`;
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

export function loadProject(dirs: ProjectDirs): { project: Project; problems: Problem[] } {
  const root = resolve(dirs.root);
  const screensDir = resolve(root, dirs.screensDir ?? 'screens');
  const localesDir = resolve(root, dirs.localesDir ?? 'locales');
  const schemasDir = resolve(root, dirs.schemasDir ?? 'schemas');
  const problems: Problem[] = [];

  const meta = readJson(join(schemasDir, 'screen.schema.json'), root, problems) as Record<string, unknown>;
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validateScreen = ajv.compile(meta);
  const outcomesMeta = readJson(join(schemasDir, 'outcomes.schema.json'), root, problems) as Record<string, unknown> | undefined;
  const validateOutcomes = outcomesMeta ? ajv.compile(outcomesMeta) : undefined;

  const operations: Record<string, OperationFile> = {};
  for (const file of jsonFiles(join(schemasDir, 'api'))) {
    if (basename(file) === 'operation.schema.json') continue;
    const doc = readJson(file, root, problems) as OperationFile | undefined;
    if (doc && typeof doc.operation === 'string') operations[doc.operation] = doc;
  }

  const locales: Record<string, Record<string, unknown>> = {};
  const brokenLocales: string[] = [];
  if (existsSync(localesDir)) {
    for (const lang of readdirSync(localesDir).sort()) {
      const dir = join(localesDir, lang);
      if (!statSync(dir).isDirectory()) continue;
      const merged: Record<string, unknown> = {};
      for (const file of jsonFiles(dir)) {
        const doc = readJson(file, root, problems);
        if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
          brokenLocales.push(`${lang}/${basename(file, '.json')}`);
          if (doc !== undefined) problems.push({ file: rel(root, file), pointer: '', message: 'a locale file must hold a JSON object' });
          continue;
        }
        checkLocaleValues(doc, rel(root, file), '', problems);
        merged[basename(file, '.json')] = doc;
      }
      locales[lang] = merged;
    }
  }

  let outcomes = NO_SHARED_OUTCOMES;
  const outcomesFile = join(screensDir, SHARED_OUTCOMES_FILE);
  if (existsSync(outcomesFile)) {
    const doc = readJson(outcomesFile, root, problems);
    if (doc !== undefined && validateOutcomes && !validateOutcomes(doc)) {
      for (const error of specificErrors(validateOutcomes.errors ?? [])) problems.push({ file: rel(root, outcomesFile), pointer: error.instancePath, message: describeAjvError(error) });
    } else if (doc !== undefined) outcomes = doc as SharedOutcomes;
  }

  const screens: LoadedScreen[] = [];
  for (const file of jsonFiles(screensDir)) {
    const name = rel(root, file);
    const doc = readJson(file, root, problems);
    if (doc === undefined) continue;
    if (!validateScreen(doc)) {
      for (const error of specificErrors(validateScreen.errors ?? [])) {
        problems.push({ file: name, pointer: error.instancePath, message: describeAjvError(error) });
      }
      continue;
    }
    const screen = doc as ScreenFile;
    if (screen.id !== basename(file, '.json')) {
      problems.push({ file: name, pointer: '/id', message: `id "${screen.id}" must equal the file name "${basename(file, '.json')}"` });
    }
    const schemas: Record<string, Record<string, unknown>> = {};
    for (const [stepName, step] of Object.entries(screen.steps)) {
      if (!step.schema) continue;
      try {
        schemas[stepName] = inlineRefs(step.schema, schemasDir, schemasDir, `/steps/${stepName}/schema`) as Record<string, unknown>;
      } catch (error) {
        if (!(error instanceof RefError)) throw error;
        problems.push({ file: name, pointer: error.pointer, message: error.message });
      }
    }
    screens.push({ file: name, screen, schemas });
  }
  return { project: { root, screens, locales, operations, schemasDir, brokenLocales, lists: loadLists(schemasDir), outcomes }, problems };
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
  const op = project.operations[operation];
  if (!op?.response) return [];
  let schema: unknown;
  try {
    const schemasDir = project.schemasDir ?? join(project.root, 'schemas');
    schema = inlineRefs(op.response, join(schemasDir, 'api'), schemasDir);
  } catch {
    return []; // a bad $ref in schemas/api is the contract test's to report
  }
  const codes = new Set<string>();
  const collect = (node: unknown, path: string[]) => {
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    for (const branch of ['allOf', 'anyOf', 'oneOf'] as const) {
      if (Array.isArray(n[branch])) for (const sub of n[branch] as unknown[]) collect(sub, path);
    }
    if (path.length === 0) {
      for (const list of [n.enum, n.examples, n.const === undefined ? undefined : [n.const]]) {
        if (Array.isArray(list)) for (const v of list) if (typeof v === 'string') codes.add(v);
      }
      return;
    }
    const [head = '', ...rest] = path;
    const props = n.properties as Record<string, unknown> | undefined;
    if (props && head in props) collect(props[head], rest);
  };
  collect(schema, resultFrom.replace(/^\//, '').split('/').filter(Boolean));
  return [...codes];
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

/** All cross-checks of one screen; the meta-schema has already passed. */
function checkScreen(entry: LoadedScreen, project: Project, allRoutes: string[], problems: Problem[]): void {
  const { screen, file } = entry;
  const report = (pointer: string, message: string, suggestion?: string) =>
    problems.push({ file, pointer, message: suggestion ? `${message}; did you mean "${suggestion}"?` : message, ...(suggestion ? { suggestion } : {}) });
  const languages = Object.keys(project.locales);
  const stepNames = Object.keys(screen.steps);
  const routeParams = new Set((screen.routes ?? []).flatMap((r) => [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '')));

  const checkKey = (key: string, pointer: string) => {
    if (languages.length === 0) return report(pointer, 'no locales found');
    // A locale file that does not parse is reported once, not once per key it would hold.
    const checkable = languages.filter((lang) => !project.brokenLocales?.includes(`${lang}/${key.split('.')[0]}`));
    const missing = checkable.filter((lang) => !hasKey(project.locales[lang] ?? {}, key));
    if (missing.length === 0) return;
    // One problem per key, not one per language: a typo in a key is one mistake. The default
    // language is named first (its keys give the suggestion).
    missing.sort((a, b) => (a === 'en-us' ? -1 : b === 'en-us' ? 1 : a.localeCompare(b)));
    const [first = ''] = missing;
    const where =
      missing.length === 1 ? `locales/${first}`
      : missing.length === checkable.length ? `locales/${first} and the ${missing.length - 1} other locales`
      : missing.map((lang) => `locales/${lang}`).join(', ');
    report(pointer, `i18n key "${key}" is missing in ${where}`, closest(key, localeKeys(project, first)));
  };
  const checkText = (text: TextRef | undefined, pointer: string) => {
    if (text === undefined) return;
    if (typeof text === 'string') checkKey(text, pointer);
    else {
      checkKey(text.key, `${pointer}/key`);
      checkMapping(text.values, `${pointer}/values`);
    }
  };
  const checkSource = (source: Source, pointer: string, fields?: Set<string>) => {
    // Nested sources ({map}, {mask}) are checked like top-level ones.
    if (typeof source === 'object' && 'map' in source) return checkMapping(source.map, `${pointer}/map`, fields);
    if (typeof source === 'object' && 'mask' in source) return checkSource(source.mask, `${pointer}/mask`, fields);
    if (typeof source !== 'string') return;
    const param = /^\$params\/(.+)$/.exec(source);
    if (param && !routeParams.has(param[1] ?? '')) report(pointer, `route parameter "${param[1]}" is not in any route of this screen`);
    const field = /^\/([^/]+)/.exec(source);
    if (field && fields && !fields.has(field[1] ?? '')) report(pointer, `form field "${field[1]}" does not exist in this step`, closest(field[1] ?? '', fields));
  };
  const checkMapping = (mapping: Mapping | undefined, pointer: string, fields?: Set<string>) => {
    for (const [name, source] of Object.entries(mapping ?? {})) checkSource(source, `${pointer}/${name}`, fields);
  };
  const stepFieldsOf = (stepName: string) =>
    new Set(Object.keys(((entry.schemas[stepName] ?? screen.steps[stepName]?.schema)?.properties as Record<string, unknown> | undefined) ?? {}));
  const formFields = new Set(Object.values(entry.schemas).flatMap((schema) => Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {})));
  const checkCondition = (condition: Condition | undefined, pointer: string) => {
    for (const text of flagsOf(condition)) {
      const flag = parseFlag(text);
      if (flag.reads === 'form' && !formFields.has(flag.name)) report(pointer, `form field "${flag.name}" does not exist in any step of this screen`, closest(flag.name, [...formFields]));
      if (flag.reads === 'env' && !(ENV_FLAGS as readonly string[]).includes(flag.name)) {
        report(pointer, `unknown environment flag "$${flag.name}" (known: ${ENV_FLAGS.map((f) => '$' + f).join(', ')})`, closest('$' + flag.name, ENV_FLAGS.map((f) => '$' + f)));
      }
    }
    for (const name of listsInCondition(condition)) checkList(name, pointer);
  };
  const checkList = (name: string, pointer: string) => {
    if (!project.lists[name]) report(pointer, `unknown list "@${name}" (schemas/defs/ files with an enum: ${Object.keys(project.lists).join(', ')})`, closest(name, Object.keys(project.lists)));
  };
  const checkOutcome = (outcome: Outcome, pointer: string, fields?: Set<string>) => {
    checkMapping(outcome.assign, `${pointer}/assign`, fields);
    (outcome.actions ?? []).forEach((name, i) => {
      if (!(ACTION_NAMES as readonly string[]).includes(name)) report(`${pointer}/actions/${i}`, `unknown action "${name}" (registered: ${ACTION_NAMES.join(', ')})`, closest(name, ACTION_NAMES));
    });
    if (outcome.message) {
      checkKey(outcome.message.key, `${pointer}/message/key`);
      checkMapping(outcome.message.values, `${pointer}/message/values`);
    }
    checkText(outcome.error, `${pointer}/error`);
    checkText(outcome.warning, `${pointer}/warning`);
    // With a step, the field errors are for that step's fields (marked and focused there).
    const target = outcome.step !== undefined && screen.steps[outcome.step] ? stepFieldsOf(outcome.step) : fields;
    for (const [field, text] of Object.entries(outcome.fieldErrors ?? {})) {
      checkText(text, `${pointer}/fieldErrors/${field}`);
      if (target && !target.has(field)) {
        report(`${pointer}/fieldErrors/${field}`, `form field "${field}" does not exist in ${outcome.step !== undefined ? `step "${outcome.step}"` : 'this step'}`, closest(field, target));
      }
    }
    if (outcome.step !== undefined && !screen.steps[outcome.step]) {
      report(`${pointer}/step`, `step "${outcome.step}" does not exist (steps: ${stepNames.join(', ')})`, closest(outcome.step, stepNames));
    }
    if (outcome.navigate) {
      const to = outcome.navigate.to;
      if (!allRoutes.some((route) => routeMatches(route, to))) report(`${pointer}/navigate/to`, `no screen has a route for "${to}"`, closest(to, allRoutes));
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
  /** Every known result code of the operation has an outcome, or '*' covers the rest. */
  const checkResultCodes = (call: Partial<CallSpec>, pointer: string, background: boolean) => {
    if (call.operation === undefined || call.outcomes?.['*'] !== undefined) return;
    const missing = knownResultCodes(project, call.operation, call.resultFrom).filter((code) => outcomeFor(call, code, project.outcomes, background).from === 'unhandled');
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
      if (!project.outcomes.blocks[name]) report(`${pointer}/include/${i}`, `unknown outcome block "${name}" (screens/${SHARED_OUTCOMES_FILE} has: ${names.join(', ') || 'none'})`, closest(name, names));
    });
    const op = project.operations[call.operation];
    if (!op) {
      report(`${pointer}/operation`, `unknown operation "${call.operation}" (no schemas/api/${call.operation}.json)`, closest(call.operation, Object.keys(project.operations)));
    } else {
      const accepted = Object.keys((op.request?.properties as Record<string, unknown> | undefined) ?? {});
      for (const name of Object.keys(call.body ?? {})) {
        if (!accepted.includes(name)) report(`${pointer}/body/${name}`, `operation "${call.operation}" takes no field "${name}" (it takes: ${accepted.join(', ') || 'nothing'})`, closest(name, accepted));
      }
      checkResultCodes(call, pointer, background);
    }
    checkMapping(call.body, `${pointer}/body`, fields);
    checkOutcomes(call.outcomes, `${pointer}/outcomes`, fields);
  };
  const checkBlocks = (blocks: Block[] | undefined, pointer: string) => {
    (blocks ?? []).forEach((block, i) => {
      const at = `${pointer}/${i}`;
      checkCondition(block.when, `${at}/when`);
      checkText(block.text, `${at}/text`);
      checkText(block.title, `${at}/title`);
      (block.lines ?? []).forEach((line, j) => {
        if (typeof line === 'string' || !('text' in line)) return checkText(line, `${at}/lines/${j}`);
        checkText(line.text, `${at}/lines/${j}/text`);
        checkSource(line.email, `${at}/lines/${j}/email`);
      });
      if (block.to && !allRoutes.some((route) => routeMatches(route, block.to ?? ''))) report(`${at}/to`, `no screen has a route for "${block.to}"`, closest(block.to, allRoutes));
      if (block.type === 'component' && !(contentNames as readonly string[]).includes(block.name ?? '')) {
        report(`${at}/name`, `unknown content component "${block.name ?? ''}" (registered: ${contentNames.join(', ') || 'none'})`, closest(block.name ?? '', contentNames));
      }
      if (block.call) checkCall(block.call, `${at}/call`);
      if (block.outcome) checkOutcome(block.outcome, `${at}/outcome`);
      const needs: Record<string, boolean> = {
        link: block.to !== undefined || block.href !== undefined,
        button: block.call !== undefined || block.outcome !== undefined,
        card: block.title !== undefined || block.lines !== undefined,
      };
      if (needs[block.type] === false) report(at, `a ${block.type} block needs ${block.type === 'link' ? '"to" or "href"' : block.type === 'button' ? '"call" or "outcome"' : '"title" or "lines"'}`);
      if (['heading', 'text', 'link', 'button', 'spinner'].includes(block.type) && block.text === undefined) report(at, `a ${block.type} block needs "text"`);
    });
  };
  const checkUi = (step: StepSpec, stepName: string, fields: Set<string>) => {
    const at = `/steps/${stepName}/uiSchema`;
    const walk = (node: unknown, pointer: string, field?: string) => {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
      for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
        const p = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (TEXT_UI_KEYS.includes(key) && typeof value === 'string') checkKey(value, p);
        else if (key === 'ui:enumNames' && Array.isArray(value)) value.forEach((v, i) => typeof v === 'string' && checkKey(v, `${p}/${i}`));
        // A key prefix: one label per value of the field's enum ('mfa.methods' -> mfa.methods.TOTP ...).
        else if (key === 'ui:enumNames' && typeof value === 'string') {
          const properties = ((entry.schemas[stepName] ?? step.schema)?.properties ?? {}) as Record<string, unknown>;
          const keys = enumNameKeys(value, properties[field ?? '']);
          if (keys.length === 0) report(p, `"ui:enumNames" as a key prefix needs a field with an enum`);
          keys.forEach((k) => checkKey(k, p));
        }
        else if (key === 'ui:messages' && value && typeof value === 'object') Object.entries(value).forEach(([k, v]) => typeof v === 'string' && checkKey(v, `${p}/${k}`));
        else if (key === 'ui:hiddenWhen' || key === 'ui:readonlyWhen') checkCondition(value as Condition, p);
        else if (key === 'ui:widget') {
          if (typeof value !== 'string' || (!(widgetNames as readonly string[]).includes(value) && !(builtInWidgetNames as readonly string[]).includes(value))) {
            report(p, `unknown widget "${String(value)}" (registered: ${widgetNames.join(', ')}; rjsf built-ins: text, password, email, checkbox, select, radio, textarea, hidden ...)`, closest(String(value), [...widgetNames, ...builtInWidgetNames]));
          }
        } else if (!key.startsWith('ui:')) {
          if (field === undefined && !fields.has(key)) report(p, `form field "${key}" does not exist in this step's schema`, closest(key, fields));
          walk(value, p, field ?? key);
        }
      }
    };
    walk(step.uiSchema, at);
  };

  checkKey(screen.title, '/title');
  if (!screen.steps[screen.initialStep]) report('/initialStep', `step "${screen.initialStep}" does not exist (steps: ${stepNames.join(', ')})`, closest(screen.initialStep, stepNames));
  for (const [name, spec] of Object.entries(screen.queryMessages ?? {})) {
    checkKey(spec.key, `/queryMessages/${name}/key`);
  }
  if (screen.stateParam?.otherwise) checkOutcome(screen.stateParam.otherwise, '/stateParam/otherwise');
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
    checkBlocks(step.blocks?.before, `${at}/blocks/before`);
    checkBlocks(step.blocks?.after, `${at}/blocks/after`);
    checkMapping(step.initialData, `${at}/initialData`);
    if (step.schema) checkUi(step, stepName, fields);
    const submits = step.submit === undefined ? [] : Array.isArray(step.submit) ? step.submit : [step.submit];
    submits.forEach((submit, i) => {
      const p = Array.isArray(step.submit) ? `${at}/submit/${i}` : `${at}/submit`;
      if (!step.schema) report(p, 'a submit needs a form: this step has no schema');
      checkCondition(submit.when, `${p}/when`);
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
export function checkProject(dirs: ProjectDirs): { project: Project; problems: Problem[] } {
  const { project, problems } = loadProject(dirs);
  const owners = new Map<string, string>();
  for (const { screen, file } of project.screens) {
    (screen.routes ?? []).forEach((route, i) => {
      const owner = owners.get(route.path);
      if (owner) problems.push({ file, pointer: `/routes/${i}/path`, message: `route "${route.path}" is already used by ${owner}` });
      else owners.set(route.path, file);
    });
  }
  const allRoutes = [...owners.keys()];
  for (const entry of project.screens) checkScreen(entry, project, allRoutes, problems);
  checkSharedOutcomes(project, allRoutes, problems);
  const en = project.locales['en-us'];
  if (!en) problems.push({ file: 'locales/en-us', pointer: '', message: 'the default language en-us is missing' });
  locateProblems(project.root, problems);
  return { project, problems };
}

/** The shared outcomes' texts, routes and actions exist (their shape the meta-schema has checked). */
function checkSharedOutcomes(project: Project, allRoutes: string[], problems: Problem[]): void {
  const file = `screens/${SHARED_OUTCOMES_FILE}`;
  const report = (pointer: string, message: string, suggestion?: string) =>
    problems.push({ file, pointer, message: suggestion ? `${message}; did you mean "${suggestion}"?` : message, ...(suggestion ? { suggestion } : {}) });
  const key = (k: string | undefined, pointer: string) => {
    if (k === undefined) return;
    const missing = Object.keys(project.locales).filter((lang) => !hasKey(project.locales[lang] ?? {}, k));
    if (missing.length > 0) report(pointer, `i18n key "${k}" is missing in ${missing.map((l) => `locales/${l}`).join(', ')}`, closest(k, localeKeys(project, 'en-us')));
  };
  const text = (t: TextRef | undefined, pointer: string) => key(typeof t === 'string' ? t : t?.key, typeof t === 'string' ? pointer : `${pointer}/key`);
  const outcome = (o: Outcome, at: string) => {
    text(o.error, `${at}/error`);
    text(o.warning, `${at}/warning`);
    key(o.message?.key, `${at}/message/key`);
    (o.actions ?? []).forEach((name, i) => {
      if (!(ACTION_NAMES as readonly string[]).includes(name)) report(`${at}/actions/${i}`, `unknown action "${name}" (registered: ${ACTION_NAMES.join(', ')})`, closest(name, ACTION_NAMES));
    });
    if (o.step !== undefined) report(`${at}/step`, 'a shared outcome cannot lead to a step: steps belong to one screen');
    const to = o.navigate?.to;
    if (to !== undefined && !allRoutes.some((route) => routeMatches(route, to))) report(`${at}/navigate/to`, `no screen has a route for "${to}"`, closest(to, allRoutes));
  };
  const { defaults, visitorDefaults, unhandled, blocks } = project.outcomes;
  for (const [code, o] of Object.entries(defaults)) outcome(o, `/defaults/${code}`);
  for (const [code, o] of Object.entries(visitorDefaults)) outcome(o, `/visitorDefaults/${code}`);
  outcome(unhandled, '/unhandled');
  for (const [name, table] of Object.entries(blocks)) for (const [code, o] of Object.entries(table)) outcome(o, `/blocks/${name}/${code}`);
}

/** Adds line and column (of the pointer's node) to problems that have none yet. */
export function locateProblems(root: string, problems: Problem[]): void {
  const finder = new PositionFinder((file) => {
    try {
      return file.endsWith('.json') ? readFileSync(join(root, file), 'utf8') : undefined;
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
          for (const [lang, locale] of Object.entries(locales)) {
            // A locale file that does not parse is reported once, by loadProject.
            if (brokenLocales.includes(`${lang}/${key.split('.')[0]}`)) continue;
            if (!hasKey(locale, key)) problems.push({ file: `${rel(root, path)}:${line}`, pointer: '', message: `i18n key "${key}" is missing in locales/${lang}` });
          }
        }
      }
    }
  };
  for (const dir of dirs) visit(join(root, dir));
  return problems;
}
