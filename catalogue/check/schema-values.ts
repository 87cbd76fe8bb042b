import { formatNames } from '@frontdoor/validators';
import { escapePointer } from '../language/json-pointer';
import { schemaKeywords, type OptionReference, type WidgetOptionSchemas } from './form';
import { closest } from './suggest';

/** What the fields of a step's (inlined) JSON Schema can hold, and where a schema's own mistake is. */

/** The values an inlined field schema lists (its enum, or its allOf's). */
export function enumOfSchema(schema: unknown): string[] | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const node = schema as { enum?: unknown; allOf?: unknown[]; const?: unknown };
  if (Array.isArray(node.enum)) return node.enum.map(String);
  return Array.isArray(node.allOf) ? node.allOf.map(enumOfSchema).find((e) => e !== undefined) : undefined;
}

/** The values a field can take: its enum (or its allOf's), or its items' for a multiple choice. */
export function valuesOfSchema(schema: unknown): string[] | undefined {
  const own = enumOfSchema(schema);
  if (own) return own;
  const items = schema !== null && typeof schema === 'object' ? (schema as { items?: unknown }).items : undefined;
  return enumOfSchema(items);
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
      const at = `${pointer}/${escapePointer(key)}`;
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
