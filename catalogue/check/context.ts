import { CONDITION_KEYS, flagsOf, parseFlag } from '../language/conditions';
import type { Condition, ScreenFile, SharedOutcomes } from '../language/types';
import { routeMatches } from '../language/routes';
import { escapePointer as escape } from '../language/json-pointer';

/**
 * The screen context (ctx) as data: who sets each value and who reads it. A screen's context starts
 * from its "context", the route's "context", the history state a navigation hands over
 * ("routerState") and the state parameter's fields; outcomes "assign" into it, timers count down
 * into it. Sources ("$ctx/name"), conditions ("name", "name=value") and widget options read it.
 */
export interface Place {
  file: string;
  pointer: string;
}
export interface Read extends Place {
  name: string;
  /** For an assign: the source it copies. */
  source?: unknown;
}
export interface Navigation extends Place {
  to: string;
  /** Keys of each mapping of the navigate verb. */
  stateParam: string[];
  routerState: string[];
  params: string[];
  query: Record<string, unknown>;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Walks a screen or shared-outcomes file, skipping the steps' JSON Schemas (their keys are no flow). */
function walk(node: unknown, pointer: string, visit: (key: string, value: unknown, pointer: string) => void): void {
  if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${pointer}/${i}`, visit));
  else if (isNode(node)) {
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${escape(key)}`;
      if (key === 'schema' && /^\/steps\/[^/]+$/.test(pointer)) continue;
      visit(key, value, at);
      walk(value, at, visit);
    }
  }
}

export interface FileFacts {
  reads: Read[];
  /** Query parameters it reads ("$query/name"). */
  queries: string[];
  /** The same, with where each is read. */
  queryReads: Read[];
  /** Form fields it names outside a step (shared blocks): clear, setFields, "/field" sources. */
  formRefs: Read[];
  assigns: Read[];
  navigations: Navigation[];
  includes: string[];
}

/** Everything of one file that touches the context or leaves for another screen. */
export function factsOf(doc: unknown, file: string, base = ''): FileFacts {
  const facts: FileFacts = { reads: [], queries: [], queryReads: [], formRefs: [], assigns: [], navigations: [], includes: [] };
  walk(doc, base, (key, value, pointer) => {
    if (typeof value === 'string' && value.startsWith('$ctx/')) facts.reads.push({ file, pointer, name: value.slice(5).split('/')[0] ?? '' });
    if (typeof value === 'string' && value.startsWith('$query/')) {
      const name = value.slice(7).split('/')[0] ?? '';
      facts.queries.push(name);
      facts.queryReads.push({ file, pointer, name });
    }
    if (key === 'clear' && Array.isArray(value))
      value.forEach((name, i) => typeof name === 'string' && facts.formRefs.push({ file, pointer: `${pointer}/${i}`, name }));
    if (key === 'setFields' && isNode(value)) Object.keys(value).forEach((name) => facts.formRefs.push({ file, pointer: `${pointer}/${escape(name)}`, name }));
    if ((key === 'assign' || key === 'setFields' || key === 'body') && isNode(value)) {
      for (const [name, source] of Object.entries(value)) {
        const field = typeof source === 'string' ? /^\/([^/]+)/.exec(source)?.[1] : undefined;
        if (field !== undefined) facts.formRefs.push({ file, pointer: `${pointer}/${escape(name)}`, name: field });
      }
    }
    if (CONDITION_KEYS.includes(key) && (typeof value === 'string' || Array.isArray(value))) {
      flagsOf(value as Condition).forEach((text, i) => {
        if (typeof text !== 'string') return;
        const flag = parseFlag(text);
        if (flag.reads === 'ctx') facts.reads.push({ file, pointer: Array.isArray(value) ? `${pointer}/${i}` : pointer, name: flag.name });
      });
    }
    if (key === 'assign' && isNode(value))
      for (const [name, source] of Object.entries(value)) facts.assigns.push({ file, pointer: `${pointer}/${escape(name)}`, name, source });
    if (key === 'countdown' && typeof value === 'string') facts.assigns.push({ file, pointer, name: value });
    if (key === 'include' && Array.isArray(value)) value.forEach((name) => typeof name === 'string' && facts.includes.push(name));
    if (key === 'navigate' && isNode(value) && typeof value.to === 'string') {
      const keys = (part: string) => (isNode(value[part]) ? Object.keys(value[part] as Node) : []);
      facts.navigations.push({
        file,
        pointer,
        to: value.to,
        stateParam: keys('stateParam'),
        routerState: keys('routerState'),
        params: keys('params'),
        query: isNode(value.query) ? (value.query as Node) : {},
      });
    }
  });
  return facts;
}

const matches = new Map<string, boolean>();
/** routeMatches, remembered: the check asks the same pairs for every screen, thousands of times in the mutation test. */
export function routeHas(pattern: string, target: string): boolean {
  const key = `${pattern}\u0000${target}`;
  let hit = matches.get(key);
  if (hit === undefined) {
    hit = routeMatches(pattern, target, { caseSensitive: true });
    if (matches.size > 100_000) matches.clear();
    matches.set(key, hit);
  }
  return hit;
}

/** Screens whose routes a navigation's target matches. */
export function targetsOf<T extends { screen: Partial<ScreenFile> }>(to: string, screens: T[]): T[] {
  return screens.filter(({ screen }) => (screen.routes ?? []).some((route) => typeof route?.path === 'string' && routeHas(route.path, to)));
}

export interface ContextNames {
  /** Name to where it is set (the first place; "declared" for context, route context and state fields). */
  set: Map<string, string>;
}

/**
 * The names a screen's context can hold: declared ("context", route contexts, state-parameter
 * fields), handed over by navigations to its routes ("routerState"), assigned by its outcomes and
 * the shared outcome tables it uses, counted down by its timers.
 */
export function contextNames(
  screen: ScreenFile,
  own: FileFacts,
  incoming: Navigation[],
  shared: SharedOutcomes,
  sharedFacts: Record<string, FileFacts>,
): Map<string, string> {
  const set = new Map<string, string>();
  const add = (name: string, how: string) => void (set.has(name) || set.set(name, how));
  Object.keys(screen.context ?? {}).forEach((n) => add(n, 'the screen\'s "context"'));
  (screen.routes ?? []).forEach((route) => Object.keys(route.context ?? {}).forEach((n) => add(n, `the route ${route.path}`)));
  Object.keys(screen.stateParam?.fields ?? {}).forEach((n) => add(n, 'the state parameter'));
  incoming.forEach((nav) => nav.routerState.forEach((n) => add(n, `the routerState of ${nav.file} at ${nav.pointer}`)));
  own.assigns.forEach((a) => add(a.name, `an assign at ${a.pointer}`));
  for (const block of [...new Set(own.includes)]) (sharedFacts[block]?.assigns ?? []).forEach((a) => add(a.name, `the shared block "${block}"`));
  for (const part of ['defaults', 'visitorDefaults'] as const) {
    for (const outcome of Object.values(shared[part] ?? {})) Object.keys(outcome.assign ?? {}).forEach((n) => add(n, 'the shared defaults'));
  }
  return set;
}
