import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { DEFAULT_LANGUAGE } from '../../src/app/studio-entry';

/**
 * The studio's recipes as edits of file texts: each takes the screen file (and locale files) as
 * typed and answers the new texts. jsonc-parser changes only the members concerned, so the rest of
 * a file keeps its layout and the diff shows exactly the recipe. No React here: the forms
 * (studio/recipes/*.tsx) collect the choices, these functions make the edit (tests/studio/recipes.test.ts).
 */
export type Json = Record<string, unknown>;

/** "<lang>/<file>.json" to the file's full text. */
export type LocaleTexts = Record<string, string>;

export interface EditResult {
  screen: string;
  locales: LocaleTexts;
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** Sets (or with undefined removes) the value at a path of a JSON text. */
export function setAt(text: string, path: JSONPath, value: unknown): string {
  return applyEdits(text, modify(text, path, value, FORMAT));
}

export function parseObject(text: string): Json | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Where a text key lives: 'login.fields.email' is fields.email of locales/<lang>/login.json. */
export function keyLocation(key: string, lang: string): { file: string; path: string[] } {
  const [file = '', ...path] = key.split('.');
  return { file: `${lang}/${file}.json`, path };
}

/** Sets one text (an empty text removes it: the language then falls back to English). */
export function setText(locales: LocaleTexts, key: string, lang: string, text: string): LocaleTexts {
  const { file, path } = keyLocation(key, lang);
  const before = locales[file] ?? '{}\n';
  return { ...locales, [file]: setAt(before, path, text === '' ? undefined : text) };
}

/** The fields of a step in the order the form shows them (ui:order, '*' standing for the rest). */
export function fieldOrder(screen: Json, step: string): string[] {
  const spec = obj(obj(screen.steps)[step]);
  const names = Object.keys(obj(obj(spec.schema).properties));
  const order = strings(obj(spec.uiSchema)['ui:order']);
  if (order.length === 0) return names;
  const listed = order.filter((name) => name === '*' || names.includes(name));
  const rest = names.filter((name) => !listed.includes(name));
  const star = listed.indexOf('*');
  return star === -1 ? [...listed, ...rest] : [...listed.slice(0, star), ...rest, ...listed.slice(star + 1)];
}

/** The kinds of field a person can add without writing a schema. */
export const FIELD_KINDS = {
  text: { schema: { type: 'string', maxLength: 200 } },
  email: { schema: { $ref: 'defs/email.json' }, ui: { 'ui:autocomplete': 'email', 'ui:options': { inputType: 'email' } } },
  number: { schema: { type: 'number' } },
  checkbox: { schema: { type: 'boolean' } },
  longText: { schema: { type: 'string', maxLength: 2000 }, ui: { 'ui:widget': 'textarea' } },
} as const satisfies Record<string, { schema: Json; ui?: Json }>;
export type FieldKind = keyof typeof FIELD_KINDS;

export interface NewField {
  name: string;
  kind: FieldKind;
  /** The label in English (the other languages are pending until translated). */
  label: string;
  required: boolean;
  /** The field it goes after; undefined puts it last. */
  after?: string;
}

const stepPath = (step: string, ...rest: JSONPath): JSONPath => ['steps', step, ...rest];

/**
 * Add a field: the property in the step's schema, its label key in the UI schema, its place in
 * ui:order (written when the step has one or the field does not go last), `required` if asked, and
 * the English label in locales/en-us/<screen>.json.
 */
export function addField(screenText: string, locales: LocaleTexts, screenId: string, step: string, field: NewField): EditResult {
  const screen = parseObject(screenText) ?? {};
  const spec = obj(obj(screen.steps)[step]);
  const kind = FIELD_KINDS[field.kind];
  const key = `${screenId}.fields.${field.name}`;
  let text = setAt(screenText, stepPath(step, 'schema', 'properties', field.name), kind.schema);
  if (field.required) text = setAt(text, stepPath(step, 'schema', 'required'), [...strings(obj(spec.schema).required), field.name]);
  text = setAt(text, stepPath(step, 'uiSchema', field.name), { 'ui:title': key, ...('ui' in kind ? kind.ui : {}) });
  const order = fieldOrder(screen, step);
  const hasOrder = Array.isArray(obj(spec.uiSchema)['ui:order']);
  const at = field.after === undefined ? order.length : order.indexOf(field.after) + 1;
  if (hasOrder || at < order.length) {
    const star = strings(obj(spec.uiSchema)['ui:order']).includes('*');
    const placed = [...order.slice(0, at), field.name, ...order.slice(at)];
    text = setAt(text, stepPath(step, 'uiSchema', 'ui:order'), star ? [...placed, '*'] : placed);
  }
  return { screen: text, locales: setText(locales, key, DEFAULT_LANGUAGE, field.label) };
}

/** Move a field one place up (-1) or down (+1): ui:order lists every field afterwards. */
export function moveField(screenText: string, step: string, name: string, by: -1 | 1): string {
  const screen = parseObject(screenText) ?? {};
  const order = fieldOrder(screen, step);
  const from = order.indexOf(name);
  const to = from + by;
  if (from === -1 || to < 0 || to >= order.length) return screenText;
  const next = [...order];
  next.splice(from, 1);
  next.splice(to, 0, name);
  const star = strings(obj(obj(obj(screen.steps)[step]).uiSchema)['ui:order']).includes('*');
  return setAt(screenText, stepPath(step, 'uiSchema', 'ui:order'), star ? [...next, '*'] : next);
}

/** The submits of a step as JSON paths (one object, or a list of alternatives). */
function submitPaths(spec: Json, step: string): JSONPath[] {
  if (Array.isArray(spec.submit)) return spec.submit.map((_, i) => stepPath(step, 'submit', i));
  return spec.submit === undefined ? [] : [stepPath(step, 'submit')];
}

/**
 * Remove a field: its property, `required` entry, ui:order entry and UI schema entry, and the body
 * members of the step's submits that send it. Its texts stay (other screens may use the key).
 */
export function removeField(screenText: string, step: string, name: string): string {
  const screen = parseObject(screenText) ?? {};
  const spec = obj(obj(screen.steps)[step]);
  let text = setAt(screenText, stepPath(step, 'schema', 'properties', name), undefined);
  const required = strings(obj(spec.schema).required);
  if (required.includes(name))
    text = setAt(
      text,
      stepPath(step, 'schema', 'required'),
      required.filter((n) => n !== name),
    );
  const order = obj(spec.uiSchema)['ui:order'];
  if (Array.isArray(order))
    text = setAt(
      text,
      stepPath(step, 'uiSchema', 'ui:order'),
      strings(order).filter((n) => n !== name),
    );
  if (obj(spec.uiSchema)[name] !== undefined) text = setAt(text, stepPath(step, 'uiSchema', name), undefined);
  for (const path of submitPaths(spec, step)) {
    const submit = obj(path.length === 3 ? spec.submit : (spec.submit as unknown[])[path[3] as number]);
    for (const [member, source] of Object.entries(obj(submit.body))) {
      if (source === `/${name}`) text = setAt(text, [...path, 'body', member], undefined);
    }
  }
  return text;
}

/** Swap a widget: "ui:widget" of the field; undefined goes back to the default for its type. */
export function swapWidget(screenText: string, step: string, name: string, widget: string | undefined): string {
  return setAt(screenText, stepPath(step, 'uiSchema', name, 'ui:widget'), widget);
}

/** A field's label key, or a new one ('<screen>.fields.<name>') set in its UI schema. */
export function labelKey(screenText: string, screenId: string, step: string, name: string): { key: string; screen: string } {
  const screen = parseObject(screenText) ?? {};
  const title = obj(obj(obj(obj(screen.steps)[step]).uiSchema)[name])['ui:title'];
  if (typeof title === 'string') return { key: title, screen: screenText };
  const key = `${screenId}.fields.${name}`;
  return { key, screen: setAt(screenText, stepPath(step, 'uiSchema', name, 'ui:title'), key) };
}

/** What an outcome may lead to; the keys of an outcome that say where it goes. */
export type Destination = { step: string } | { navigate: string } | { stay: true };
const TRANSITIONS = ['step', 'navigate', 'authenticate', 'redirect', 'resubmit'];

/** The JSON path of a call the simulator lists ('submit-0', 'probe-1', 'block-after-0', 'enter-2'). */
export function callPath(screen: Json, step: string, id: string): JSONPath | undefined {
  const spec = obj(obj(screen.steps)[step]);
  const [kind = '', a = '', b = ''] = id.split('-');
  if (kind === 'submit') return submitPaths(spec, step)[Number(a)];
  if (kind === 'probe') return stepPath(step, 'probes', Number(a));
  if (kind === 'block') return stepPath(step, 'blocks', a, Number(b), 'call');
  if (kind === 'enter') return ['onEnter', Number(a)];
  return undefined;
}

/**
 * Route a result code: the call's own outcome for the code, starting from what handles it now
 * (`current`: its own outcome, a shared block's or default's, so its message and actions stay),
 * with the old destination replaced.
 */
export function routeCode(screenText: string, call: JSONPath, code: string, current: Json, to: Destination): string {
  const kept = Object.fromEntries(Object.entries(current).filter(([k]) => !TRANSITIONS.includes(k)));
  const outcome = 'step' in to ? { ...kept, step: to.step } : 'navigate' in to ? { ...kept, navigate: { to: to.navigate } } : kept;
  return setAt(screenText, [...call, 'outcomes', code], outcome);
}

/**
 * A field's name from its label, as a developer would write it: the label's letters and digits in
 * camelCase, accents dropped ("Company code" → companyCode, "Numéro d'employé" → numeroDEmploye),
 * starting with a small letter; a name the step has already gets a number (companyCode2).
 */
export function nameFromLabel(label: string, taken: readonly string[] = []): string {
  const words = label
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const camel = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  const base = /^[a-z]/.test(camel) ? camel : camel ? `field${camel.charAt(0).toUpperCase()}${camel.slice(1)}` : '';
  if (!base || !taken.includes(base)) return base;
  let n = 2;
  while (taken.includes(`${base}${n}`)) n += 1;
  return `${base}${n}`;
}
