import { escapePointer, pointerSegments } from '../language/json-pointer';
import type { CallRef, DiffItem, Target } from './types';

/**
 * The semantic diff of one screen file (two parsed versions of screens/<id>.json): per step, the
 * fields added, removed, reordered, made required or optional, given another widget or another label
 * text; per call, the result codes that lead elsewhere or show another message; and, so that nothing
 * goes unmentioned, the JSON pointers of every other difference.
 */
type Json = Record<string, unknown>;

const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const strings = (value: unknown): string[] => arr(value).filter((v): v is string => typeof v === 'string');

/** The key of a text reference ('login.title' or { key, values }). */
export function textKey(ref: unknown): string | undefined {
  if (typeof ref === 'string') return ref;
  const key = obj(ref).key;
  return typeof key === 'string' ? key : undefined;
}

/** The fields of a step in the order the form shows them (ui:order, '*' standing for the rest). */
export function fieldOrder(step: Json): string[] {
  const properties = Object.keys(obj(obj(step.schema).properties));
  const order = strings(obj(step.uiSchema)['ui:order']);
  if (order.length === 0) return properties;
  const listed = order.filter((name) => name !== '*' && properties.includes(name));
  const rest = properties.filter((name) => !listed.includes(name));
  const star = order.indexOf('*');
  if (star < 0) return [...listed, ...rest];
  const head = order.slice(0, star).filter((name) => listed.includes(name));
  return [...head, ...rest, ...listed.filter((name) => !head.includes(name))];
}

const uiOf = (step: Json, field: string): Json => obj(obj(step.uiSchema)[field]);
/** The text key of a field's label. */
export const labelKey = (step: Json, field: string): string | undefined => textKey(uiOf(step, field)['ui:title']);
const isRequired = (step: Json, field: string) => strings(obj(step.schema).required).includes(field);
const widgetOf = (step: Json, field: string) => {
  const widget = uiOf(step, field)['ui:widget'];
  return typeof widget === 'string' ? widget : undefined;
};

function targetOf(outcome: Json): Target {
  if (typeof outcome.step === 'string') return { kind: 'step', step: outcome.step };
  const navigate = obj(outcome.navigate);
  if (typeof navigate.to === 'string') return { kind: 'route', path: navigate.to };
  if (outcome.authenticate === true) return { kind: 'authenticate' };
  if (outcome.redirect !== undefined) return { kind: 'redirect' };
  if (outcome.resubmit === true) return { kind: 'resubmit' };
  return { kind: 'stay' };
}

const messageOf = (outcome: Json): string | undefined => textKey(outcome.error) ?? textKey(outcome.warning) ?? textKey(obj(outcome.message).key);
const sameTarget = (a: Target | undefined, b: Target | undefined) => JSON.stringify(a) === JSON.stringify(b);

interface Call {
  ref: CallRef;
  /** Pointer of the call's object. */
  pointer: string;
  step?: string;
  /** Result code to its outcome and the outcome's pointer ('*' also for a single `outcome`). */
  outcomes: Record<string, { outcome: Json; pointer: string }>;
}

function callOf(node: Json, kind: CallRef['kind'], pointer: string, step?: string): Call {
  const outcomes = Object.fromEntries(
    Object.entries(obj(node.outcomes)).map(([code, o]) => [code, { outcome: obj(o), pointer: `${pointer}/outcomes/${escapePointer(code)}` }]),
  );
  if (node.outcome !== undefined) outcomes['*'] = { outcome: obj(node.outcome), pointer: `${pointer}/outcome` };
  return { ref: { kind, operation: typeof node.operation === 'string' ? node.operation : '' }, pointer, ...(step ? { step } : {}), outcomes };
}

/** Every call of the screen, by the pointer of its object (the same place in both versions is the same call). */
function callsOf(screen: Json): Map<string, Call> {
  const calls: Call[] = [];
  arr(screen.onEnter).forEach((action, i) => calls.push(callOf(obj(action), 'enter', `/onEnter/${i}`)));
  arr(screen.timers).forEach((timer, i) => calls.push(callOf(obj(timer), 'timer', `/timers/${i}`)));
  for (const [name, stepValue] of Object.entries(obj(screen.steps))) {
    const step = obj(stepValue);
    const base = `/steps/${escapePointer(name)}`;
    if (Array.isArray(step.submit)) step.submit.forEach((submit, i) => calls.push(callOf(obj(submit), 'submit', `${base}/submit/${i}`, name)));
    else if (step.submit !== undefined) calls.push(callOf(obj(step.submit), 'submit', `${base}/submit`, name));
    arr(step.probes).forEach((probe, i) => calls.push(callOf(obj(probe), 'probe', `${base}/probes/${i}`, name)));
    for (const place of ['before', 'after']) {
      arr(obj(step.blocks)[place]).forEach((blockValue, i) => {
        const block = obj(blockValue);
        const at = `${base}/blocks/${place}/${i}`;
        if (block.call !== undefined) calls.push(callOf(obj(block.call), 'button', `${at}/call`, name));
        else if (block.outcome !== undefined) calls.push(callOf({ outcome: block.outcome }, 'button', at, name));
      });
    }
  }
  return new Map(calls.map((call) => [call.pointer, call]));
}

/** Pointers of every leaf that differs (an array of another length is one difference). */
function leafDifferences(a: unknown, b: unknown, pointer = '', out: string[] = []): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return out;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((item, i) => leafDifferences(item, b[i], `${pointer}/${i}`, out));
    return out;
  }
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a as Json), ...Object.keys(b as Json)]))
      leafDifferences((a as Json)[key], (b as Json)[key], `${pointer}/${escapePointer(key)}`, out);
    return out;
  }
  out.push(pointer);
  return out;
}

/** Labels of fields, looked up by the caller in the default language (the key → its text). */
export type LabelOf = (key: string | undefined, side: 'before' | 'after') => string | undefined;

/** Where a diff of one screen collects its items and the pointers they explain (what is left is 'screen-other'). */
interface ScreenDiff {
  id: string;
  label: LabelOf;
  items: DiffItem[];
  explained: string[];
}

/** A field kept on both sides: made required or optional, its widget swapped, relabelled. */
function diffField(d: ScreenDiff, step: string, field: string, sa: Json, sb: Json): void {
  const { id, label, items, explained } = d;
  const at = `/steps/${escapePointer(step)}/uiSchema/${escapePointer(field)}`;
  const name = label(labelKey(sb, field), 'after');
  if (isRequired(sa, field) !== isRequired(sb, field))
    items.push({ kind: 'field-required', screen: id, step, field, label: name, required: isRequired(sb, field) });
  if (widgetOf(sa, field) !== widgetOf(sb, field)) {
    items.push({ kind: 'widget-swapped', screen: id, step, field, label: name, before: widgetOf(sa, field), after: widgetOf(sb, field) });
    explained.push(`${at}/ui:widget`);
  }
  if (labelKey(sa, field) !== labelKey(sb, field)) {
    items.push({
      kind: 'field-relabelled',
      screen: id,
      step,
      field,
      lang: '',
      before: label(labelKey(sa, field), 'before') ?? labelKey(sa, field),
      after: name ?? labelKey(sb, field),
    });
    explained.push(`${at}/ui:title`);
  }
}

/** A step on both sides: fields added, removed, reordered, and each kept one's changes. */
function diffStep(d: ScreenDiff, step: string, sa: Json, sb: Json): void {
  const { id, label, items, explained } = d;
  const base = `/steps/${escapePointer(step)}`;
  const fieldsA = fieldOrder(sa);
  const fieldsB = fieldOrder(sb);
  const fieldPointers = (field: string) => [`${base}/schema/properties/${escapePointer(field)}`, `${base}/uiSchema/${escapePointer(field)}`];
  for (const field of fieldsB.filter((f) => !fieldsA.includes(f))) {
    items.push({ kind: 'field-added', screen: id, step, field, label: label(labelKey(sb, field), 'after'), required: isRequired(sb, field) });
    explained.push(...fieldPointers(field));
  }
  for (const field of fieldsA.filter((f) => !fieldsB.includes(f))) {
    items.push({ kind: 'field-removed', screen: id, step, field, label: label(labelKey(sa, field), 'before') });
    explained.push(...fieldPointers(field));
  }
  const common = fieldsA.filter((f) => fieldsB.includes(f));
  const commonAfter = fieldsB.filter((f) => fieldsA.includes(f));
  if (common.join() !== commonAfter.join()) items.push({ kind: 'fields-reordered', screen: id, step, before: common, after: commonAfter });
  explained.push(`${base}/uiSchema/ui:order`, `${base}/schema/required`);
  for (const field of common) diffField(d, step, field, sa, sb);
}

/** The calls on both sides (the same operation at the same place): each result code led elsewhere, or to another message. */
function diffCalls(d: ScreenDiff, a: Json, b: Json): void {
  const { id, items, explained } = d;
  const callsA = callsOf(a);
  for (const [pointer, callB] of callsOf(b)) {
    const callA = callsA.get(pointer);
    if (!callA || callA.ref.operation !== callB.ref.operation) continue;
    const place = callB.step ? { screen: id, step: callB.step } : { screen: id };
    for (const code of new Set([...Object.keys(callA.outcomes), ...Object.keys(callB.outcomes)])) {
      const oa = callA.outcomes[code]?.outcome;
      const ob = callB.outcomes[code]?.outcome;
      const codePointer = (callB.outcomes[code] ?? callA.outcomes[code])?.pointer ?? pointer;
      const ta = oa ? targetOf(oa) : undefined;
      const tb = ob ? targetOf(ob) : undefined;
      if (!sameTarget(ta, tb)) {
        items.push({ kind: 'route-changed', ...place, call: callB.ref, code, before: ta, after: tb });
        explained.push(codePointer);
      } else if (oa && ob && messageOf(oa) !== messageOf(ob)) {
        items.push({ kind: 'message-changed', ...place, call: callB.ref, code, before: messageOf(oa), after: messageOf(ob) });
        explained.push(codePointer);
      }
    }
  }
}

/** The diff of one screen (both versions parsed; null: the file does not exist on that side). */
export function diffScreen(id: string, before: unknown, after: unknown, label: LabelOf): DiffItem[] {
  if (before === null && after === null) return [];
  if (before === null) return [{ kind: 'screen-added', screen: id }];
  if (after === null) return [{ kind: 'screen-removed', screen: id }];
  const a = obj(before);
  const b = obj(after);
  const d: ScreenDiff = { id, label, items: [], explained: [] };
  const stepsA = obj(a.steps);
  const stepsB = obj(b.steps);
  for (const step of new Set([...Object.keys(stepsA), ...Object.keys(stepsB)])) {
    if (step in stepsA && step in stepsB) diffStep(d, step, obj(stepsA[step]), obj(stepsB[step]));
    else {
      d.items.push({ kind: step in stepsB ? 'step-added' : 'step-removed', screen: id, step });
      d.explained.push(`/steps/${escapePointer(step)}`);
    }
  }
  diffCalls(d, a, b);
  const others = leafDifferences(a, b).filter((p) => !d.explained.some((e) => p === e || p.startsWith(`${e}/`)));
  if (others.length > 0) {
    const step = others.map((p) => pointerSegments(p)).find((segments) => segments[0] === 'steps' && segments[1] !== undefined)?.[1];
    d.items.push({ kind: 'screen-other', screen: id, ...(step ? { step } : {}), pointers: others });
  }
  return d.items;
}
