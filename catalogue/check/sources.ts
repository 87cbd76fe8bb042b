import { flagsOf, parseFlag } from '../language/conditions';
import type { Condition, Mapping, Source, TextRef } from '../language/types';
import { listReference, listsInCondition, type Lists } from './lists';
import { checkTextKey } from './locales';
import type { ScreenCheck } from './screen-check';
import { closest } from './suggest';
import type { Report } from './types';
import type { Vocabulary } from './vocabulary';

/** Sources, mappings, conditions and texts of a screen: what each reads exists (catalogue/language). */

/** A '$env/name' source names what a host provides. */
export function checkEnvSource(vocabulary: Vocabulary, report: Report, source: string, pointer: string): void {
  const name = /^\$env\/([^/]*)/.exec(source)?.[1];
  if (name === undefined || vocabulary.env.includes(name)) return;
  const meant = closest(name, vocabulary.env);
  report(pointer, `unknown "$env/${name}" (known: ${vocabulary.env.join(', ')})`, meant && `$env/${meant}`);
}

/** An outcome's actions are ones a host implements. */
export function checkActions(vocabulary: Vocabulary, report: Report, actions: readonly string[] | undefined, pointer: string): void {
  (actions ?? []).forEach((name, i) => {
    if (!vocabulary.actions.includes(name))
      report(`${pointer}/${i}`, `unknown action "${name}" (registered: ${vocabulary.actions.join(', ')})`, closest(name, vocabulary.actions));
  });
}

/** A '@list' names a business list of schemas/defs. */
export function checkList(lists: Lists, report: Report, name: string, pointer: string): void {
  if (!lists[name])
    report(pointer, `unknown list "@${name}" (schemas/defs/ files with an enum: ${Object.keys(lists).join(', ')})`, closest(name, Object.keys(lists)));
}

const where = (fields: Set<string> | undefined) => (fields ? 'this step' : 'any step of this screen');

/** A source: a route parameter of this screen, a '$env/name' a host provides, a form field of the step (or of any step). */
export function checkSource(c: ScreenCheck, source: Source, pointer: string, fields?: Set<string>): void {
  // Nested sources ({map}, {mask}) are checked like top-level ones.
  if (typeof source === 'object' && 'map' in source) return checkMapping(c, source.map, `${pointer}/map`, fields);
  if (typeof source === 'object' && 'mask' in source) return checkSource(c, source.mask, `${pointer}/mask`, fields);
  if (typeof source !== 'string') return;
  const param = /^\$params\/(.+)$/.exec(source);
  if (param && !c.routeParams.has(param[1] ?? '')) c.report(pointer, `route parameter "${param[1]}" is not in any route of this screen`);
  checkEnvSource(c.project.vocabulary, c.report, source, pointer);
  const field = /^\/([^/]+)/.exec(source)?.[1];
  // Without a step (on enter, timers), a form field is one of any step's.
  const known = fields ?? c.formFields;
  if (field !== undefined && !known.has(field)) c.report(pointer, `form field "${field}" does not exist in ${where(fields)}`, closest(field, known));
}

export function checkMapping(c: ScreenCheck, mapping: Mapping | undefined, pointer: string, fields?: Set<string>): void {
  for (const [name, source] of Object.entries(mapping ?? {})) checkSource(c, source, `${pointer}/${name}`, fields);
}

/** A text: its key, its values' placeholders, and the sources of its values. */
export function checkText(c: ScreenCheck, text: TextRef | undefined, pointer: string): void {
  checkTextKey(c.project, c.report, text, pointer);
  if (text !== undefined && typeof text !== 'string') checkMapping(c, text.values, `${pointer}/values`);
}

/** Form fields named by a list of names ("clear") or a mapping's keys ("setFields") exist where the outcome runs. */
export function checkFieldNames(c: ScreenCheck, names: Array<[string, string]>, fields?: Set<string>): void {
  const known = fields ?? c.formFields;
  for (const [name, pointer] of names) if (!known.has(name)) c.report(pointer, `form field "${name}" does not exist in ${where(fields)}`, closest(name, known));
}

/** What a condition names exists: form fields, '$name' flags, lists; and the values it compares against are ones the value can take. */
export function checkCondition(c: ScreenCheck, condition: Condition | undefined, pointer: string): void {
  const flags = c.project.vocabulary.flags;
  flagsOf(condition).forEach((text, i) => {
    const flag = parseFlag(text);
    const allowed = flag.operator === '=' ? c.flagValues(flag.reads, flag.name) : undefined;
    for (const option of allowed ? flag.options : []) {
      if (listReference(option) !== undefined || allowed?.includes(option)) continue;
      c.report(
        Array.isArray(condition) ? `${pointer}/${i}` : pointer,
        `"${flag.name}" is never "${option}" (its values: ${allowed?.join(', ')})`,
        closest(option, allowed ?? []),
      );
    }
  });
  for (const text of flagsOf(condition)) {
    const flag = parseFlag(text);
    if (flag.reads === 'form' && !c.formFields.has(flag.name))
      c.report(pointer, `form field "${flag.name}" does not exist in any step of this screen`, closest(flag.name, [...c.formFields]));
    if (flag.reads === 'env' && !flags.includes(flag.name)) {
      const known = flags.map((f) => `$${f}`);
      c.report(pointer, `unknown environment flag "$${flag.name}" (known: ${known.join(', ')})`, closest(`$${flag.name}`, known));
    }
  }
  for (const name of listsInCondition(condition)) checkList(c.project.lists, c.report, name, pointer);
}
