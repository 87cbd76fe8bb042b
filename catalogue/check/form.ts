import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addValidators, { formatNames } from '@frontdoor/validators';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from './types';
import type { CatalogueFiles } from './files';
import { escapePointer as escape, readPointer } from '../language/json-pointer';
import { closest } from './suggest';
import { CODE_ROOT } from './root';

/**
 * The form of one step as rjsf and the validators see it: its JSON Schema compiled strictly (a
 * misspelt keyword or format is an error, not silently ignored as rjsf's own ajv does), `required`,
 * `sameAs` and `ui:order` naming properties that exist, `ui:messages` for rules the field has, and
 * each widget's `ui:options` against the schema the widget declares beside its code
 * (widgets/<name>/options.schema.json; rjsf's own widgets: widgets/rjsf.options.schema.json).
 */
type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

let strictAjv: Ajv | undefined;
/** One strict ajv with the validators plugin, for every step schema (compiled once per schema text). */
function strict(): Ajv {
  strictAjv ??= addValidators(
    new Ajv({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, allowUnionTypes: true, allErrors: true, validateSchema: true }),
  );
  return strictAjv;
}

/** Every keyword the strict ajv knows (JSON Schema draft-07's and the validators plugin's): what a misspelt one is compared with. */
export function schemaKeywords(): string[] {
  return Object.keys(strict().RULES.keywords);
}

/** Keywords whose annotations or sub-schemas never fail by themselves: no error, so no message, carries their name. */
const SILENT = ['$comment', 'id', '$ref', 'nullable', 'allOf', 'then', 'else', 'properties', 'patternProperties', 'items'];

/** The keywords a validation error can name (ajv's and the plugin's), which ui:messages may give a text for. */
export function messageKeywords(): string[] {
  return [...Object.keys(strict().RULES.all).filter((keyword) => !SILENT.includes(keyword)), 'false schema'];
}

/** Compiles a step's inlined schema the strict way; the message of the first failure, or undefined. */
export function compileProblem(files: CatalogueFiles, schema: Node): string | undefined {
  const text = JSON.stringify(schema);
  return files.memo(`compile:${text}`, [], () => {
    try {
      strict().compile(schema);
      strict().removeSchema(schema);
      return undefined;
    } catch (error) {
      return (error as Error).message.replace(/^strict mode: /, '');
    }
  });
}

/**
 * Object schemas of a form: `required` (anywhere in the object's own branches) and `sameAs` name
 * one of its properties. Pointers are of the file's own schema (its $refs not followed).
 */
export function checkSchemaNames(schema: unknown, at: string, report: Report): void {
  if (Array.isArray(schema)) return schema.forEach((item, i) => checkSchemaNames(item, `${at}/${i}`, report));
  if (!isNode(schema)) return;
  const props = isNode(schema.properties) ? Object.keys(schema.properties) : undefined;
  if (props) {
    const checkRequired = (node: unknown, pointer: string) => {
      if (!isNode(node)) return;
      if (Array.isArray(node.required)) {
        node.required.forEach((name, i) => {
          if (typeof name === 'string' && !props.includes(name))
            report(
              `${pointer}/required/${i}`,
              `"required" names "${name}", which is not a property of this form: the form could never be sent`,
              closest(name, props),
            );
        });
      }
      for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
        if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((sub, i) => checkRequired(sub, `${pointer}/${key}/${i}`));
      for (const key of ['if', 'then', 'else', 'not'] as const) checkRequired(node[key], `${pointer}/${key}`);
    };
    checkRequired(schema, at);
    for (const [name, sub] of Object.entries(schema.properties as Node)) {
      if (isNode(sub) && Array.isArray(sub.enum) && sub.default !== undefined && !sub.enum.includes(sub.default)) {
        report(
          `${at}/properties/${escape(name)}/default`,
          `the default ${JSON.stringify(sub.default)} is not one of the field's values (${sub.enum.map(String).join(', ')})`,
          closest(String(sub.default), sub.enum.map(String)),
        );
      }
      if (isNode(sub) && typeof sub.sameAs === 'string' && !props.includes(sub.sameAs)) {
        report(`${at}/properties/${escape(name)}/sameAs`, `"sameAs" names "${sub.sameAs}", which is not a property of this form`, closest(sub.sameAs, props));
      }
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isNode(value))
      for (const [name, sub] of Object.entries(value)) checkSchemaNames(sub, `${at}/properties/${escape(name)}`, report);
    else if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples' && key !== 'required')
      checkSchemaNames(value, `${at}/${escape(key)}`, report);
  }
}

export interface WidgetOptionSchemas {
  /** Widget name to its options schema; '' for rjsf's own widgets. */
  schemas: Record<string, Node>;
  validators: Record<string, ValidateFunction>;
  problems: Array<{ file: string; pointer: string; message: string }>;
}

/** The code's own folder (widgets live with the code that registers them, not with a catalogue copy). */
let widgetOptionSchemas: WidgetOptionSchemas | undefined;

/** The options schema each widget declares beside its code (widgets/<name>/options.schema.json), compiled once. */
export function loadWidgetOptions(names: readonly string[]): WidgetOptionSchemas {
  if (widgetOptionSchemas) return widgetOptionSchemas;
  const paths = [...names.map((name) => `widgets/${name}/options.schema.json`), 'widgets/rjsf.options.schema.json'];
  const ajv = new Ajv({ allErrors: true, strict: false });
  const out: WidgetOptionSchemas = { schemas: {}, validators: {}, problems: [] };
  paths.forEach((path, i) => {
    const name = i < names.length ? (names[i] ?? '') : '';
    const file = join(CODE_ROOT, path);
    if (!existsSync(file))
      return void out.problems.push({ file: path, pointer: '', message: `widget "${name || 'rjsf'}" declares no options schema (${path})` });
    try {
      const schema = JSON.parse(readFileSync(file, 'utf8')) as Node;
      out.schemas[name] = schema;
      out.validators[name] = ajv.compile(schema);
    } catch (error) {
      out.problems.push({ file: path, pointer: '', message: `not a usable options schema: ${(error as Error).message}` });
    }
  });
  widgetOptionSchemas = out;
  return out;
}

/** What a widget option's value names, from the options schema's "refersTo": a context value or a form field. */
export type OptionReference = { kind: 'context' | 'field'; name: string; pointer: string };

function describeOptionError(error: ErrorObject, widget: string, allowed: string[]): { at: string; message: string; suggestion?: string } {
  const p = error.params as Record<string, unknown>;
  const who = widget ? `widget "${widget}"` : "rjsf's own widgets";
  if (error.keyword === 'additionalProperties') {
    const name = String(p.additionalProperty);
    return { at: `/${escape(name)}`, message: `${who} has no option "${name}" (options: ${allowed.join(', ') || 'none'})`, suggestion: closest(name, allowed) };
  }
  if (error.keyword === 'enum') {
    const values = (p.allowedValues as unknown[]).map(String);
    return { at: error.instancePath, message: `${who}: option ${error.instancePath.slice(1)} must be one of ${values.join(', ')}`, suggestion: undefined };
  }
  return { at: error.instancePath, message: `${who}: option ${error.instancePath.slice(1) || ''} ${error.message ?? error.keyword}`.replace(/  +/g, ' ') };
}

/** Checks one field's ui:options against its widget's schema; returns what its values refer to. */
export function checkWidgetOptions(options: unknown, widget: string, pointer: string, loaded: WidgetOptionSchemas, report: Report): OptionReference[] {
  const validate = loaded.validators[widget];
  const schema = loaded.schemas[widget];
  if (!validate || !schema) return [];
  const allowed = Object.keys((schema.properties as Node | undefined) ?? {});
  if (!validate(options)) {
    for (const error of validate.errors ?? []) {
      const { at, message, suggestion } = describeOptionError(error, widget, allowed);
      const value = error.keyword === 'enum' ? readPointer(options, error.instancePath) : undefined;
      const enumSuggestion = error.keyword === 'enum' ? closest(String(value), ((error.params as Node).allowedValues as unknown[]).map(String)) : suggestion;
      report(`${pointer}${at}`, message, enumSuggestion);
    }
  }
  const refs: OptionReference[] = [];
  if (isNode(options)) {
    for (const [name, value] of Object.entries(options)) {
      const declared = (schema.properties as Node | undefined)?.[name];
      const kind = isNode(declared) ? declared.refersTo : undefined;
      if ((kind === 'context' || kind === 'field') && typeof value === 'string') refs.push({ kind, name: value, pointer: `${pointer}/${escape(name)}` });
    }
  }
  return refs;
}

/**
 * ui:messages names validation keywords (ajv's and the validators plugin's): a misspelt one never
 * matches an error, so its text would never be shown. (A known keyword the field has no rule for is
 * left alone: making a field optional should not force removing its message.)
 */
export function checkMessages(messages: unknown, pointer: string, report: Report): void {
  if (!isNode(messages)) return;
  for (const keyword of Object.keys(messages)) {
    if (!messageKeywords().includes(keyword)) {
      report(
        `${pointer}/${escape(keyword)}`,
        `"${keyword}" is not a validation keyword: this message would never be shown`,
        closest(keyword, messageKeywords()),
      );
    }
  }
}

/** ui:order names each property once (or '*' for the rest); rjsf refuses to render otherwise. */
export function checkOrder(order: unknown, properties: string[], pointer: string, report: Report): void {
  if (!Array.isArray(order)) return;
  const seen = new Set<string>();
  order.forEach((name, i) => {
    if (typeof name !== 'string') return;
    if (seen.has(name)) report(`${pointer}/${i}`, `"${name}" is listed twice in ui:order (the form would not render)`);
    seen.add(name);
    if (name !== '*' && !properties.includes(name))
      report(`${pointer}/${i}`, `ui:order names "${name}", which is not a property of this form (the form would not render)`, closest(name, properties));
  });
  if (!seen.has('*')) {
    const missing = properties.filter((name) => !seen.has(name));
    if (missing.length > 0)
      report(
        pointer,
        `ui:order lacks ${missing.map((m) => `"${m}"`).join(', ')}: list ${missing.length > 1 ? 'them' : 'it'} or add "*" (the form would not render)`,
      );
  }
}

/** Options a widget reads by default when ui:options leaves them out (e.g. duo's urlFrom: duoUrl). */
export function defaultOptionRefs(options: unknown, widget: string, pointer: string, loaded: WidgetOptionSchemas): OptionReference[] {
  const declared = (loaded.schemas[widget]?.properties ?? {}) as Record<string, { refersTo?: unknown; default?: unknown }>;
  const given = options !== null && typeof options === 'object' ? (options as Record<string, unknown>) : {};
  return Object.entries(declared)
    .filter(([name, spec]) => !(name in given) && (spec.refersTo === 'context' || spec.refersTo === 'field') && typeof spec.default === 'string')
    .map(([, spec]) => ({ kind: spec.refersTo as 'context' | 'field', name: spec.default as string, pointer }));
}

/** Where in the file's own schema ajv's complaint is (an unknown keyword or format), and what was meant. */
export function locateCompileProblem(schema: unknown, message: string): { pointer: string; suggestion?: string } {
  const keyword = /unknown keyword: "([^"]+)"/.exec(message)?.[1];
  const format = /unknown format "([^"]+)"/.exec(message)?.[1];
  let found: string | undefined;
  const visit = (node: unknown, pointer: string) => {
    if (found !== undefined || node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const at = `${pointer}/${escape(key)}`;
      if ((keyword !== undefined && key === keyword) || (format !== undefined && key === 'format' && value === format)) {
        found = at;
        return;
      }
      if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') visit(value, at);
    }
  };
  visit(schema, '');
  const suggestion = keyword !== undefined ? closest(keyword, schemaKeywords()) : format !== undefined ? closest(format, formatNames) : undefined;
  return { pointer: found ?? '', ...(suggestion ? { suggestion } : {}) };
}
