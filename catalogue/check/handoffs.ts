import { escapePointer } from '../language/json-pointer';
import { factsOf, targetsOf, type FileFacts, type Navigation } from './context';
import type { WidgetOptionSchemas } from './form';
import { closest } from './suggest';
import { reporter, type LoadedScreen, type Problem, type Project } from './types';

/** Context names a screen reads: sources, conditions, the shared blocks it includes, its widgets' options. */
export function readsOf(
  entry: LoadedScreen,
  own: FileFacts,
  sharedFacts: Record<string, FileFacts>,
  widgetOptions: WidgetOptionSchemas,
  widgets: readonly string[],
): Set<string> {
  const reads = new Set(own.reads.map((r) => r.name));
  for (const block of own.includes) (sharedFacts[block]?.reads ?? []).forEach((r) => reads.add(r.name));
  for (const step of Object.values(entry.screen.steps)) {
    for (const [, ui] of Object.entries(step.uiSchema ?? {})) {
      if (ui === null || typeof ui !== 'object' || Array.isArray(ui)) continue;
      const u = ui as Record<string, unknown>;
      const widget = typeof u['ui:widget'] === 'string' && widgets.includes(u['ui:widget']) ? u['ui:widget'] : undefined;
      if (!widget) continue;
      const declared = (widgetOptions.schemas[widget]?.properties ?? {}) as Record<string, { refersTo?: unknown; default?: unknown }>;
      const given = (u['ui:options'] ?? {}) as Record<string, unknown>;
      for (const [name, spec] of Object.entries(declared)) {
        const value = given[name] ?? spec.default;
        if (spec.refersTo === 'context' && typeof value === 'string') reads.add(value);
      }
    }
  }
  return reads;
}

/**
 * What a navigation hands the next screen: state-parameter keys its "stateParam" declares, history
 * state ("routerState") it reads, {name} placeholders of "to" with their "params", and a
 * ?message= its "queryMessages" offers.
 */
export function checkHandoffs(
  project: Project,
  navigations: Navigation[],
  facts: Map<string, FileFacts>,
  sharedFacts: Record<string, FileFacts>,
  widgetOptions: WidgetOptionSchemas,
  problems: Problem[],
): void {
  const report = (file: string, pointer: string, message: string, suggestion?: string) => reporter(problems, file)(pointer, message, suggestion);
  const readsCache = new Map<string, Set<string>>();
  for (const nav of navigations) {
    const placeholders = [...nav.to.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
    nav.params.forEach((name) => {
      if (!placeholders.includes(name))
        report(nav.file, `${nav.pointer}/params/${escapePointer(name)}`, `"to" has no {${name}} placeholder for this value`, closest(name, placeholders));
    });
    placeholders.forEach((name) => {
      if (!nav.params.includes(name)) report(nav.file, `${nav.pointer}/to`, `{${name}} in "to" has no value in "params"`, closest(name, nav.params));
    });
    const path = nav.to.replace(/\{[^}]+\}/g, 'x');
    for (const target of targetsOf(path, project.screens)) {
      const id = target.screen.id;
      const fields = Object.keys(target.screen.stateParam?.fields ?? {});
      for (const key of nav.stateParam) {
        if (!fields.includes(key)) {
          report(
            nav.file,
            `${nav.pointer}/stateParam/${escapePointer(key)}`,
            target.screen.stateParam
              ? `screen "${id}" does not read "${key}" from its state parameter (its fields: ${fields.join(', ')})`
              : `screen "${id}" takes no state parameter`,
            closest(key, fields),
          );
        }
      }
      let reads = readsCache.get(target.file);
      if (!reads) {
        reads = readsOf(target, facts.get(target.file) ?? factsOf(target.screen, target.file), sharedFacts, widgetOptions, project.vocabulary.widgets);
        readsCache.set(target.file, reads);
      }
      for (const key of nav.routerState) {
        if (!reads.has(key))
          report(
            nav.file,
            `${nav.pointer}/routerState/${escapePointer(key)}`,
            `screen "${id}" does not read "${key}" (it reads: ${[...reads].sort().join(', ') || 'nothing'})`,
            closest(key, reads),
          );
      }
      const targetFacts = facts.get(target.file);
      const queryNames = [...project.vocabulary.queries, ...(target.screen.queryMessages ? ['message'] : []), ...(targetFacts?.queries ?? [])];
      for (const key of Object.keys(nav.query)) {
        if (!queryNames.includes(key))
          report(
            nav.file,
            `${nav.pointer}/query/${escapePointer(key)}`,
            `screen "${id}" reads no query parameter "${key}" (it reads: ${queryNames.join(', ')})`,
            closest(key, queryNames),
          );
      }
      const message = nav.query.message;
      if (message !== null && typeof message === 'object' && typeof (message as { const?: unknown }).const === 'string') {
        const name = (message as { const: string }).const;
        const offered = Object.keys(target.screen.queryMessages ?? {});
        if (!offered.includes(name))
          report(
            nav.file,
            `${nav.pointer}/query/message/const`,
            `screen "${id}" has no message "${name}" (its queryMessages: ${offered.join(', ') || 'none'})`,
            closest(name, offered),
          );
      }
    }
  }
}

/**
 * A query parameter a screen (or a shared block) reads must come from somewhere: a host declares it
 * (the page reads return_to and redirect_uri), it is the ?message= of queryMessages, or a link of the
 * catalogue to that screen sends it. Otherwise a misspelt "$query/rturn_to" reads nothing, silently.
 * Always checked against every navigation (a partial check still knows every link).
 */
export function checkQueryReads(
  project: Project,
  navigations: Navigation[],
  facts: Map<string, FileFacts>,
  sharedFacts: Record<string, FileFacts>,
  only: ReadonlySet<string> | undefined,
  problems: Problem[],
): void {
  const sent = new Map<string, Set<string>>();
  const anywhere = new Set<string>();
  for (const nav of navigations) {
    const path = nav.to.replace(/\{[^}]+\}/g, 'x');
    for (const target of targetsOf(path, project.screens)) {
      const names = sent.get(target.file) ?? new Set<string>();
      Object.keys(nav.query).forEach((key) => (names.add(key), anywhere.add(key)));
      sent.set(target.file, names);
    }
  }
  const known = (extra: Iterable<string>) => [...project.vocabulary.queries, 'message', ...extra];
  const check = (f: FileFacts, allowed: string[], whose: string) => {
    for (const read of f.queryReads) {
      if (only && !only.has(read.file)) continue;
      if (allowed.includes(read.name)) continue;
      reporter(problems, read.file)(
        read.pointer,
        `${whose} reads the query parameter "${read.name}", which no host declares and no link to it sends (known: ${[...new Set(allowed)].join(', ')})`,
        closest(read.name, allowed),
      );
    }
  };
  for (const [file, f] of facts) check(f, known(sent.get(file) ?? []), `screen file ${file}`);
  for (const [name, f] of Object.entries(sharedFacts)) check(f, known(anywhere), `shared block "${name}"`);
}
