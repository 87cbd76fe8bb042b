import { escapePointer } from '../language/json-pointer';
import { RJSF_WIDGET_NAMES } from '../language/rjsf-widgets';
import type { Condition, StepSpec } from '../language/types';
import { checkMessages, checkOrder, checkWidgetOptions, defaultOptionRefs } from './form';
import { enumNameKeys } from './lists';
import { checkKey } from './locales';
import type { ScreenCheck } from './screen-check';
import { checkCondition } from './sources';
import { closest } from './suggest';

/**
 * A step's UI schema: its texts are keys, its widgets are registered (a host's or rjsf's own) with
 * the options they declare, the values those options name exist, its conditions and ui:order hold,
 * and every key that is not a ui: key is a field of the form.
 */
type Node = Record<string, unknown>;
const TEXT_UI_KEYS = ['ui:title', 'ui:description', 'ui:help', 'ui:placeholder'];
const propertiesOf = (schema: Node | undefined) => (schema?.properties as Record<string, Node> | undefined) ?? {};

export function checkUi(c: ScreenCheck, step: StepSpec, stepName: string, fields: Set<string>): void {
  const at = `/steps/${stepName}/uiSchema`;
  const properties = propertiesOf((c.entry.schemas[stepName] ?? step.schema ?? {}) as Node);
  checkOrder((step.uiSchema ?? {})['ui:order'], Object.keys(properties), `${at}/ui:order`, c.report);
  walk(c, fields, properties, step.uiSchema, at);
}

/** The options schema a field's "ui:widget" is checked against: '' for rjsf's own, the widget's for a host's, none for an unknown one. */
function optionsOf(c: ScreenCheck, widget: string | undefined): string | undefined {
  if (widget === undefined || RJSF_WIDGET_NAMES.includes(widget)) return '';
  return c.project.vocabulary.widgets.includes(widget) ? widget : undefined;
}

/** One field's own ui: keys: its widget's options and what they name, its messages, its nested order. */
function checkField(c: ScreenCheck, fields: Set<string>, entries: Node, pointer: string, fieldSchema: Node | undefined): void {
  const { catalogue } = c;
  const widget = typeof entries['ui:widget'] === 'string' ? entries['ui:widget'] : undefined;
  const options = optionsOf(c, widget);
  if (options !== undefined) {
    const refs = checkWidgetOptions(entries['ui:options'] ?? {}, options, `${pointer}/ui:options`, catalogue.widgetOptions, c.report);
    for (const ref of [...refs, ...defaultOptionRefs(entries['ui:options'], options, `${pointer}/ui:widget`, catalogue.widgetOptions)]) {
      if (ref.kind === 'context' && !catalogue.names.has(ref.name))
        c.report(ref.pointer, `context value "${ref.name}" is never set on this screen (set: ${c.contextHint()})`, closest(ref.name, catalogue.names.keys()));
      if (ref.kind === 'field' && !fields.has(ref.name))
        c.report(ref.pointer, `form field "${ref.name}" does not exist in this step`, closest(ref.name, fields));
    }
  }
  checkMessages(entries['ui:messages'], `${pointer}/ui:messages`, c.report);
  if (entries['ui:order'] !== undefined) checkOrder(entries['ui:order'], Object.keys(propertiesOf(fieldSchema)), `${pointer}/ui:order`, c.report);
}

/** One ui: key's value. */
function checkUiKey(c: ScreenCheck, key: string, value: unknown, p: string, fieldSchema: Node | undefined): void {
  const say = (text: string, at: string) => checkKey(c.project, c.report, text, at);
  if (TEXT_UI_KEYS.includes(key) && typeof value === 'string') say(value, p);
  else if (key === 'ui:enumNames' && Array.isArray(value)) value.forEach((v, i) => typeof v === 'string' && say(v, `${p}/${i}`));
  // A key prefix: one label per value of the field's enum ('mfa.methods' -> mfa.methods.TOTP ...).
  else if (key === 'ui:enumNames' && typeof value === 'string') {
    const keys = enumNameKeys(value, fieldSchema);
    if (keys.length === 0) c.report(p, `"ui:enumNames" as a key prefix needs a field with an enum`);
    keys.forEach((k) => say(k, p));
  } else if (key === 'ui:messages' && value && typeof value === 'object')
    Object.entries(value).forEach(([k, v]) => typeof v === 'string' && say(v, `${p}/${escapePointer(k)}`));
  else if (key === 'ui:hiddenWhen' || key === 'ui:readonlyWhen') checkCondition(c, value as Condition, p);
  else if (key === 'ui:widget') {
    const widgets = c.project.vocabulary.widgets;
    if (typeof value !== 'string' || (!widgets.includes(value) && !RJSF_WIDGET_NAMES.includes(value)))
      c.report(
        p,
        `unknown widget "${String(value)}" (registered: ${widgets.join(', ')}; rjsf built-ins: text, password, email, checkbox, select, radio, textarea, hidden ...)`,
        closest(String(value), [...widgets, ...RJSF_WIDGET_NAMES]),
      );
  }
}

/** The UI schema node of the step (field undefined) or of a field, and the entries under it. */
function walk(c: ScreenCheck, fields: Set<string>, properties: Record<string, Node>, node: unknown, pointer: string, field?: string, fieldSchema?: Node): void {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const entries = node as Node;
  if (field !== undefined) checkField(c, fields, entries, pointer, fieldSchema);
  for (const [key, value] of Object.entries(entries)) {
    const p = `${pointer}/${escapePointer(key)}`;
    if (key.startsWith('ui:')) {
      checkUiKey(c, key, value, p, fieldSchema);
      continue;
    }
    const names = field === undefined ? [...fields] : Object.keys(propertiesOf(fieldSchema));
    // An object field without its own properties (free-form) takes any entry.
    const known = field === undefined || fieldSchema?.properties !== undefined ? names.includes(key) : true;
    if (!known) {
      const uiLike = /^ui/i.test(key) ? closest(key, c.project.uiKeys?.field ?? []) : undefined;
      c.report(
        p,
        uiLike ? `unknown UI key "${key}"` : `form field "${key}" does not exist in ${field === undefined ? "this step's schema" : `field "${field}"`}`,
        uiLike ?? closest(key, names),
      );
    }
    const sub = field === undefined ? properties[key] : propertiesOf(fieldSchema)[key];
    walk(c, fields, properties, value, p, field === undefined ? key : `${field}.${key}`, sub);
  }
}
