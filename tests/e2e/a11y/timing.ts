import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { flagsOf, parseFlag } from '../../../catalogue/language/conditions';
import type { Condition } from '../../../catalogue/language/types';

/**
 * Timing (WCAG 2.2.1), from the catalogue itself, so a screen added later is judged the same way.
 * Every time limit a screen sets must be long enough (20 hours) or stoppable: its `when` names a
 * context flag negated (`!stayHere`) that a button of the same screen sets (an outcome that assigns
 * it), so the visitor turns the limit off before it runs out. Messages that hide by themselves
 * (after 5 seconds, SPEC §9) may only confirm: an error or a warning stays until dismissed
 * (`permanent`).
 */

/** The 20-hour exception of WCAG 2.2.1. */
const TWENTY_HOURS_MS = 20 * 60 * 60 * 1000;

export interface TimingFacts {
  /** Each time limit: where, how long, and how it is turned off. */
  timers: string[];
  problems: string[];
}

type Json = unknown;

/** Every object in a JSON value with its pointer. */
function* objects(value: Json, pointer = ''): Generator<[string, Record<string, Json>]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* objects(item, `${pointer}/${i}`);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, Json>;
    yield [pointer, record];
    for (const [key, item] of Object.entries(record)) yield* objects(item, `${pointer}/${key}`);
  }
}

/** Context names set to a value by a button of the screen (its outcome's assign). */
function namesAButtonSets(screen: Json): Set<string> {
  const names = new Set<string>();
  for (const [, block] of objects(screen)) {
    if (block.type !== 'button') continue;
    const outcome = block.outcome as { assign?: Record<string, Json> } | undefined;
    for (const name of Object.keys(outcome?.assign ?? {})) names.add(name);
  }
  return names;
}

/** The screen files as they are: file name and parsed content. */
export function screenFiles(root = process.cwd()): Array<{ file: string; screen: Json }> {
  const dir = join(root, 'screens');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((file) => ({ file, screen: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Json }));
}

export function timingFacts(screens: Array<{ file: string; screen: Json }>): TimingFacts {
  const facts: TimingFacts = { timers: [], problems: [] };
  for (const { file, screen } of screens) {
    const settable = namesAButtonSets(screen);
    for (const [pointer, node] of objects(screen)) {
      if (Array.isArray(node.timers)) {
        for (const [i, timer] of (node.timers as Array<{ afterMs: number; when?: Condition }>).entries()) {
          const where = `${file}${pointer}/timers/${i}`;
          const off = flagsOf(timer.when)
            .map(parseFlag)
            .find((flag) => flag.negated && flag.reads === 'ctx' && flag.operator === undefined && settable.has(flag.name));
          if (timer.afterMs >= TWENTY_HOURS_MS) facts.timers.push(`${where}: ${timer.afterMs} ms, 20 hours or more`);
          else if (off) facts.timers.push(`${where}: ${timer.afterMs / 1000} s, a button turns it off (${off.name})`);
          else facts.problems.push(`${where}: a ${timer.afterMs / 1000} s time limit the visitor cannot turn off, adjust or extend`);
        }
      }
      const message = node.message as { kind?: string; permanent?: boolean; key?: string } | undefined;
      if (message && typeof message === 'object' && (message.kind === 'error' || message.kind === 'warning') && message.permanent !== true)
        facts.problems.push(`${file}${pointer}/message: the ${message.kind} "${message.key}" hides after 5 seconds (make it permanent)`);
      if (pointer === '' && node.queryMessages && typeof node.queryMessages === 'object') {
        for (const [name, spec] of Object.entries(node.queryMessages as Record<string, { kind?: string; permanent?: boolean; key?: string }>)) {
          if ((spec.kind === 'error' || spec.kind === 'warning') && spec.permanent !== true)
            facts.problems.push(`${file}/queryMessages/${name}: the ${spec.kind} "${spec.key}" hides after 5 seconds (make it permanent)`);
        }
      }
    }
  }
  return facts;
}
