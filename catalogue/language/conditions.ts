import { readPointer } from './json-pointer';
import type { Condition } from './types';

/**
 * The condition language of screen files (`when`, `disabledWhen`, `ui:hiddenWhen`, `ui:readonlyWhen`),
 * parsed here and only here: the runtime evaluates it, the UI schema and the runtime ask which form
 * fields it reads, the catalogue check asks what it names.
 *
 * A condition is a flag or a list of flags (all must hold). A flag is `$name` (an environment flag),
 * `name` (a context value, true when truthy) or `/name` (a form field), optionally followed by
 * `=value` (equals, as a string) or `^=value` (starts with); `a|b|c` after the operator means any of
 * them; `@list` there names a business list of schemas/defs (expanded by the build); `!` negates.
 */
// Which `$name` flags exist is the host's to say (its vocabulary, e.g. src/app/vocabulary.json): the
// language only parses and evaluates them; the catalogue check refuses names no host declares.

/** The keys of screen files whose value is a condition. */
export const CONDITION_KEYS: readonly string[] = ['when', 'disabledWhen', 'ui:hiddenWhen', 'ui:readonlyWhen'];

export interface Flag {
  negated: boolean;
  /** env: `$name`; ctx: `name`; form: `/name`. */
  reads: 'env' | 'ctx' | 'form';
  name: string;
  operator?: '=' | '^=';
  /** The values after the operator ('a|b' is two); `@list` stays as written until the build expands it. */
  options: string[];
}

const FLAG = /^(!?)(\$|\/)?([^=^!$/]*)(?:(\^?=)(.*))?$/;

export function parseFlag(text: string): Flag {
  const [, bang = '', sigil, name = '', operator, rest = ''] = FLAG.exec(text) ?? [];
  return {
    negated: bang === '!',
    reads: sigil === '$' ? 'env' : sigil === '/' ? 'form' : 'ctx',
    name,
    operator: operator as Flag['operator'],
    options: operator === undefined ? [] : rest.split('|'),
  };
}

export function flagsOf(condition: Condition | undefined): string[] {
  return condition === undefined ? [] : Array.isArray(condition) ? condition : [condition];
}

/** What a condition reads. Immutable, like the scope it is part of. */
export interface ConditionScope {
  form: Record<string, unknown>;
  ctx: Record<string, unknown>;
  flags: Readonly<Record<string, boolean>>;
}

function flagHolds(flag: Flag, scope: ConditionScope): boolean {
  if (flag.reads === 'env') return Object.hasOwn(scope.flags, flag.name) && scope.flags[flag.name] === true;
  const value = flag.reads === 'form' ? readPointer(scope.form, `/${flag.name}`) : scope.ctx[flag.name];
  if (flag.operator === undefined) return Boolean(value);
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return false;
  const text = String(value);
  return flag.operator === '=' ? flag.options.includes(text) : flag.options.some((option) => text.startsWith(option));
}

/** True when every flag of the condition holds. No condition holds trivially. */
export function holds(condition: Condition | undefined, scope: ConditionScope): boolean {
  return flagsOf(condition).every((text) => {
    const flag = parseFlag(text);
    return flagHolds(flag, scope) !== flag.negated;
  });
}

/** The form fields a set of conditions reads (`/field` flags), sorted. */
export function formFieldsIn(conditions: ReadonlyArray<Condition | undefined>): string[] {
  const fields = new Set<string>();
  for (const condition of conditions) {
    for (const text of flagsOf(condition)) {
      const flag = parseFlag(text);
      if (flag.reads === 'form') fields.add(flag.name);
    }
  }
  return [...fields].sort();
}
