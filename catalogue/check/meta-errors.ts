import type { ErrorObject } from 'ajv';
import { escapePointer } from '../language/json-pointer';
import { closest } from './suggest';
import type { Problem, UiKeys } from './types';

/**
 * A file against its meta-schema (schemas/screen.schema.json, outcomes.schema.json): ajv's errors
 * said as people read them, one per place, with the UI key probably meant.
 */
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
export function schemaProblems(errors: ErrorObject[], file: string, uiKeys: UiKeys): Problem[] {
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
export function uiKeysOf(meta: Record<string, unknown> | undefined): UiKeys {
  const defs = (meta?.definitions ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  const keys = (name: string) => Object.keys(defs[name]?.properties ?? {}).filter((k) => k.startsWith('ui:'));
  return { root: keys('uiSchema'), field: keys('uiField') };
}
