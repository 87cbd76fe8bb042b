import type { Condition, UiSchema } from '../types';
import { holds, type ConditionScope } from '../../../catalogue/language/conditions';

/** uiSchema keys whose values are i18n keys, translated before rjsf sees them. */
const TEXT_KEYS = ['ui:title', 'ui:description', 'ui:help', 'ui:placeholder'] as const;
/** Front-door uiSchema keys rjsf does not know; removed after use. */
const ENGINE_KEYS = ['ui:hiddenWhen', 'ui:readonlyWhen', 'ui:messages'] as const;

export type Translate = (key: string, values?: Record<string, unknown>) => string;

export interface PreparedUi {
  uiSchema: UiSchema;
  /** Top-level fields hidden under the current context: not rendered, not validated. */
  hidden: Set<string>;
  /** Field name to keyword to i18n key, from ui:messages. */
  messages: Record<string, Record<string, string>>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Returns a new uiSchema (the catalogue's stays untouched) with texts translated and the
 * engine's conditional keys applied. Only the top level of a step's fields is conditional.
 */
export function prepareUiSchema(source: UiSchema | undefined, t: Translate, scope: ConditionScope): PreparedUi {
  const hidden = new Set<string>();
  const messages: PreparedUi['messages'] = {};
  const translateNode = (node: Record<string, unknown>, field?: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if ((TEXT_KEYS as readonly string[]).includes(key) && typeof value === 'string') out[key] = t(value);
      else if (key === 'ui:enumNames' && Array.isArray(value)) out[key] = value.map((item) => (typeof item === 'string' ? t(item) : item));
      else if ((ENGINE_KEYS as readonly string[]).includes(key)) continue;
      else if (key === 'ui:options' && isObject(value)) out[key] = translateNode(value);
      else if (!key.startsWith('ui:') && isObject(value)) out[key] = translateNode(value);
      else out[key] = value;
    }
    if (field !== undefined) {
      if (node['ui:hiddenWhen'] !== undefined && holds(node['ui:hiddenWhen'] as Condition, scope)) {
        hidden.add(field);
        out['ui:widget'] = 'hidden';
        // Hidden by a condition, it is not for password managers either (see hidden-widget.tsx).
        delete out['ui:autocomplete'];
      }
      if (node['ui:readonlyWhen'] !== undefined && holds(node['ui:readonlyWhen'] as Condition, scope)) out['ui:readonly'] = true;
      if (isObject(node['ui:messages'])) messages[field] = node['ui:messages'] as Record<string, string>;
    }
    return out;
  };
  // Choices carry their own values in the markup, not their index: what a plain post sends, and what
  // was chosen in a prerendered form before the app took it over (early-input.ts), reads as the value.
  const uiSchema: UiSchema = { 'ui:globalOptions': { optionValueFormat: 'realValue' } };
  for (const [key, value] of Object.entries(source ?? {})) {
    uiSchema[key] = !key.startsWith('ui:') && isObject(value) ? translateNode(value, key) : value;
  }
  return { uiSchema, hidden, messages };
}
