import { useLayoutEffect, useState, useSyncExternalStore } from 'react';
import type { RJSFSchema } from '@rjsf/utils';
import { EARLY_MARKS } from '../../lib/early-marks';

/**
 * A form the server prerendered (scripts/prerender.ts) is usable before the app's scripts have run:
 * the visitor may have typed, ticked or chosen, and pressed its submit (held by src/early.ts). When
 * the app takes the form over (it hydrates the page: React keeps what the inputs show but starts from
 * the server's data), it reads what differs from the data the form started with, and the held submit.
 * Only then: a form the app draws itself (a step after Continue or Back, a route opened in the app)
 * shows its initial data, or not yet all of it (a widget still loading), and nothing typed before.
 */
type Properties = Record<string, { type?: unknown; enum?: unknown[] } | boolean>;

const subscribeNothing = () => () => {};

/**
 * Whether this render hydrates the server's markup: React renders a hydrating component with the
 * server's snapshot, and a component it mounts itself with the client's (then it renders once more
 * after hydrating, with the client's).
 */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => false,
    () => true,
  );
}

/** A choice's value as the schema types it (the markup carries it as text: rjsf's realValue format). */
function choiceValue(text: string, property: { type?: unknown; enum?: unknown[] }): unknown {
  const match = property.enum?.find((option) => String(option) === text);
  if (match !== undefined) return match;
  if (property.type === 'number' || property.type === 'integer') return text === '' ? undefined : Number(text);
  return text === '' ? undefined : text;
}

/** The top-level fields of a hydrated form whose inputs show something else than its initial data, with what they show. */
export function readEarlyInput(form: HTMLFormElement, schema: RJSFSchema, initial: Record<string, unknown>): Record<string, unknown> {
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
  return changed;
}

/**
 * The app takes the form over (every form it mounts, hydrated or drawn: src/early.ts holds the submits
 * of a form without this mark). Returns whether a submit was pressed before (then it is the app's to make now).
 */
export function takeOver(form: HTMLFormElement): boolean {
  form.dataset[EARLY_MARKS.live] = '';
  const held = form.dataset[EARLY_MARKS.held] !== undefined;
  delete form.dataset[EARLY_MARKS.held];
  return held;
}

/**
 * A part of a form that mounts after the form was taken over (a widget in a chunk of its own, which
 * the page showed as the server wrote it meanwhile) may hold what was typed into the server's input
 * in between: that text becomes the field's value, as typing it into the part would have made it.
 * Fields mounted with the form are read by the form's own takeover; a field drawn by the app starts
 * empty in the page, so it has nothing to give.
 */
export function useTypedBeforePart(id: string, value: unknown, onChange: (value: unknown) => void): void {
  // What the field was mounted with: this runs once, when it mounts.
  const [mounted] = useState(() => ({ id, empty: value === undefined || value === null || value === '', onChange }));
  useLayoutEffect(() => {
    const element = document.getElementById(mounted.id);
    if (!(element instanceof HTMLInputElement) || element.type === 'hidden' || element.value === '' || !mounted.empty) return;
    if (element.form?.dataset[EARLY_MARKS.live] === undefined) return;
    mounted.onChange(element.value);
  }, [mounted]);
}
