import { EAGER_RJSF_WIDGETS, rjsfWidget } from '../language/rjsf-widgets';

/**
 * Which of rjsf's own fields and widgets a screen's forms render, beyond the few every form uses.
 *
 * The browser build loads those on first render (src/engine/form/rjsf-registry.tsx; the names: catalogue/language/rjsf-widgets.ts), so /login
 * does not carry selects, radios, numbers or arrays. A screen that renders one imports it in its
 * generated module instead: it arrives with the screen chunk (and its modulepreload), and the form
 * shows it on its first render. A part this misses still works; it only appears a moment later.
 */
export interface RjsfParts {
  fields: string[];
  widgets: string[];
}

/** Fields the browser registry defers; only these are worth importing with a screen. */
export const DEFERRED_FIELDS = ['ArrayField', 'NumberField', 'NullField'] as const;

/** A widget the browser registry defers, by the "ui:widget" name a screen writes. */
function deferredWidget(name: string): string | undefined {
  const widget = rjsfWidget(name);
  return widget !== undefined && !(EAGER_RJSF_WIDGETS as readonly string[]).includes(widget) ? widget : undefined;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

function hasChoices(schema: Node): boolean {
  if (Array.isArray(schema.enum)) return true;
  const options = schema.oneOf ?? schema.anyOf;
  return Array.isArray(options) && options.length > 0 && options.every((option) => isNode(option) && 'const' in option);
}

export function rjsfPartsOf(schema: unknown, uiSchema: unknown): RjsfParts {
  const fields = new Set<string>();
  const widgets = new Set<string>();
  const visit = (node: unknown, ui: unknown) => {
    if (!isNode(node)) return;
    const uiNode = isNode(ui) ? ui : {};
    const widget = uiNode['ui:widget'];
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (typeof widget === 'string') {
      const name = deferredWidget(widget);
      if (name !== undefined) widgets.add(name);
    } else if (hasChoices(node) && !types.includes('boolean')) widgets.add('SelectWidget');
    else if (node.format === 'uri') widgets.add('URLWidget');
    if (types.includes('number') || types.includes('integer')) fields.add('NumberField');
    if (types.includes('null')) fields.add('NullField');
    if (types.includes('array')) {
      fields.add('ArrayField');
      // A multiple choice (enum items) is one widget for the whole array: a select unless ui:widget names one.
      if (isNode(node.items) && hasChoices(node.items)) {
        if (typeof widget !== 'string') widgets.add('SelectWidget');
      } else if (isNode(node.items)) visit(node.items, uiNode.items);
    }
    if (isNode(node.properties)) for (const [name, child] of Object.entries(node.properties)) visit(child, uiNode[name]);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = node[key];
      if (Array.isArray(list)) for (const child of list) visit(child, ui);
    }
  };
  visit(schema, uiSchema);
  return { fields: [...fields].sort(), widgets: [...widgets].sort() };
}
