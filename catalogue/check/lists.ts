import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CONDITION_KEYS, flagsOf, parseFlag } from '../language/conditions';
import { enumOfSchema } from './schema-values';
import type { Lists } from './types';

export type { Lists };
import type { Condition, ScreenFile, StepSpec } from '../language/types';

/**
 * Business lists (SMS calling codes, languages, MFA methods) are data in one place: a JSON Schema in
 * schemas/defs/ whose `enum` is the list, read by the server, the app and the screens. A screen names
 * a list instead of copying it, and the build expands the name before the browser sees the screen:
 * - a condition `phoneNumber^=@smsUnsupportedCallingCode` (any value of the list);
 * - a state-parameter field `"enum": "@mfaMethod"`;
 * - `"ui:enumNames": "mfa.methods"`: one label key per value of the field's enum, `mfa.methods.<value>`
 *   (a field whose schema is `{ "$ref": "defs/mfaMethod.json" }` takes its enum from the list).
 */

const LIST_NAME = /^@([a-zA-Z][a-zA-Z0-9]*)$/;

/** Every schemas/defs/*.json whose enum is a list of strings, by file name. */
export function loadLists(schemasDir: string): Lists {
  const dir = join(schemasDir, 'defs');
  const lists: Lists = {};
  if (!existsSync(dir)) return lists;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    try {
      const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { enum?: unknown };
      if (Array.isArray(doc.enum) && doc.enum.every((v) => typeof v === 'string')) lists[basename(file, '.json')] = doc.enum as string[];
    } catch {
      // A broken defs file is reported where a screen refers to it ($ref resolution).
    }
  }
  return lists;
}

/** The "default" of each list that declares one (schemas/defs/language.json: the language every other falls back to). */
export function loadListDefaults(schemasDir: string): Record<string, string> {
  const dir = join(schemasDir, 'defs');
  const defaults: Record<string, string> = {};
  if (!existsSync(dir)) return defaults;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    try {
      const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { enum?: unknown; default?: unknown };
      if (typeof doc.default === 'string' && Array.isArray(doc.enum) && doc.enum.includes(doc.default)) defaults[basename(file, '.json')] = doc.default;
    } catch {
      // Reported where a screen refers to it, as for the lists.
    }
  }
  return defaults;
}

/** The list a `@name` names, or undefined when the text is no list reference. */
export function listReference(text: unknown): string | undefined {
  return typeof text === 'string' ? LIST_NAME.exec(text)?.[1] : undefined;
}

/** The list names a condition refers to. */
export function listsInCondition(condition: Condition | undefined): string[] {
  return flagsOf(condition).flatMap((text) =>
    parseFlag(text)
      .options.map(listReference)
      .filter((name): name is string => name !== undefined),
  );
}

function expandCondition(condition: Condition, lists: Lists): Condition {
  const expand = (text: string) => {
    const flag = parseFlag(text);
    if (!flag.options.some((option) => listReference(option))) return text;
    const options = flag.options.flatMap((option) => {
      const name = listReference(option);
      return name === undefined ? [option] : (lists[name] ?? [option]);
    });
    return `${flag.negated ? '!' : ''}${{ env: '$', ctx: '', form: '/' }[flag.reads]}${flag.name}${flag.operator ?? ''}${options.join('|')}`;
  };
  return Array.isArray(condition) ? condition.map(expand) : expand(condition);
}

/** A copy of the node with every condition's list references expanded (schemas are not conditions). */
function expandConditions(node: unknown, lists: Lists): unknown {
  if (Array.isArray(node)) return node.map((item) => expandConditions(item, lists));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === 'schema'
        ? value
        : CONDITION_KEYS.includes(key) && (typeof value === 'string' || Array.isArray(value))
          ? expandCondition(value as Condition, lists)
          : expandConditions(value, lists),
    ]),
  );
}

/** `"ui:enumNames": "prefix"` to one key per value of the field's enum. */
export function enumNameKeys(prefix: string, fieldSchema: unknown): string[] {
  return (enumOfSchema(fieldSchema) ?? []).map((value) => `${prefix}.${String(value)}`);
}

/**
 * The screen as the browser gets it: list references expanded, with each step's schema (refs inlined)
 * from `schemas`. Returns a new object; the file's own stays as written.
 */
export function expandScreen(screen: ScreenFile, schemas: Record<string, Record<string, unknown>>, lists: Lists): ScreenFile {
  const out = expandConditions(screen, lists) as ScreenFile;
  for (const field of Object.values(out.stateParam?.fields ?? {})) {
    const name = listReference(field.enum);
    if (name !== undefined) field.enum = lists[name] ?? [];
  }
  for (const [stepName, step] of Object.entries(out.steps) as [string, StepSpec][]) {
    const schema = schemas[stepName];
    if (schema) step.schema = schema;
    const properties = (schema?.properties ?? {}) as Record<string, unknown>;
    for (const [field, ui] of Object.entries(step.uiSchema ?? {})) {
      if (ui === null || typeof ui !== 'object') continue;
      const names = (ui as Record<string, unknown>)['ui:enumNames'];
      if (typeof names === 'string') (ui as Record<string, unknown>)['ui:enumNames'] = enumNameKeys(names, properties[field]);
    }
  }
  return out;
}

/** A state-parameter field's accepted values: its list, or the business list it names. */
export function listOrEnum(value: unknown, lists: Lists): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  const name = listReference(value);
  return name === undefined ? undefined : lists[name];
}
