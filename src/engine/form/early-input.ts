import type { RJSFSchema } from '@rjsf/utils';
import { EARLY_MARKS } from '../../lib/early-marks';

/**
 * A form the server prerendered (scripts/prerender.ts) is usable before the app's scripts have run:
 * the visitor may have typed, ticked or chosen, and pressed its submit (held by src/early.ts). When
 * the app takes the form over (it hydrates the page: React keeps what the inputs show but starts from
 * the server's data), it reads what differs from the data the form started with, and the held submit.
 */
type Properties = Record<string, { type?: unknown; enum?: unknown[] } | boolean>;

/** A choice's value as the schema types it (the markup carries it as text: rjsf's realValue format). */
function choiceValue(text: string, property: { type?: unknown; enum?: unknown[] }): unknown {
  const match = property.enum?.find((option) => String(option) === text);
  if (match !== undefined) return match;
  if (property.type === 'number' || property.type === 'integer') return text === '' ? undefined : Number(text);
  return text === '' ? undefined : text;
}

/** The top-level fields whose inputs show something else than the form's initial data, with what they show. */
export function adoptEarlyInput(form: HTMLFormElement, schema: RJSFSchema, initial: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  const properties = (schema.properties ?? {}) as Properties;
  for (const [name, property] of Object.entries(properties)) {
    if (typeof property !== 'object') continue;
    const element = form.elements.namedItem(name);
    if (!element) continue;
    if (element instanceof HTMLInputElement && element.type === 'checkbox') {
      if (element.checked !== (initial[name] === true)) changed[name] = element.checked;
    } else if (element instanceof RadioNodeList || element instanceof HTMLSelectElement) {
      const value = choiceValue(element.value, property);
      if (value !== undefined && value !== initial[name]) changed[name] = value;
    } else if ((element instanceof HTMLInputElement && element.type !== 'hidden') || element instanceof HTMLTextAreaElement) {
      const shown = initial[name] === undefined || initial[name] === null ? '' : String(initial[name]);
      if (element.value !== shown) changed[name] = choiceValue(element.value, property);
    }
  }
  form.dataset[EARLY_MARKS.live] = '';
  return changed;
}

/** Whether a submit was pressed before the app was ready (then it is the app's to make now). */
export function takeHeldSubmit(form: HTMLFormElement): boolean {
  const held = form.dataset[EARLY_MARKS.held] !== undefined;
  delete form.dataset[EARLY_MARKS.held];
  return held;
}
