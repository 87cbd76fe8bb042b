import type { Condition, Mapping, Source, TextRef } from './types';
import { readPointer } from './pointer';

/** Environment flags a condition may test with '$name'; computed by the app shell. */
export const ENV_FLAGS = ['branded', 'production', 'selfRegistrationEnabled', 'expiredTrialCookie'] as const;
export type EnvFlag = (typeof ENV_FLAGS)[number];

/** Everything a source or a condition can read. Immutable: outcomes produce a new ctx. */
export interface Scope {
  form: Record<string, unknown>;
  ctx: Record<string, unknown>;
  params: Record<string, string | undefined>;
  query: Record<string, string>;
  env: Record<string, unknown>;
  flags: Record<EnvFlag, boolean>;
  response?: unknown;
}

/** Resolves one source of a mapping (see schemas/screen.schema.json#/definitions/source). */
export function resolveSource(source: Source, scope: Scope): unknown {
  if (typeof source === 'boolean' || typeof source === 'number') return source;
  if (typeof source === 'object') {
    if ('map' in source) return resolveMapping(source.map, scope);
    if ('mask' in source) return maskText(resolveSource(source.mask, scope), source.keepLast ?? 4);
    return source.const;
  }
  if (source.startsWith('/')) return readPointer(scope.form, source);
  const match = /^\$(ctx|params|query|env|response)(\/.*)?$/.exec(source);
  if (!match) return undefined;
  const root = match[1] as 'ctx' | 'params' | 'query' | 'env' | 'response';
  return readPointer(scope[root], match[2] ?? '');
}

/** Every character but the last `keep` digits replaced by '•' (separators kept), e.g. a phone on file. */
export function maskText(value: unknown, keep: number): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  let digitsLeft = keep;
  const chars = [...value];
  for (let i = chars.length - 1; i >= 0; i--) {
    if (!/[0-9A-Za-z]/.test(chars[i]!)) continue;
    if (digitsLeft > 0) digitsLeft--;
    else chars[i] = '•';
  }
  return chars.join('');
}

/** Builds an object from a mapping; fields whose source is undefined are left out. */
export function resolveMapping(mapping: Mapping | undefined, scope: Scope): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (!mapping) return result;
  for (const [name, source] of Object.entries(mapping)) {
    const value = resolveSource(source, scope);
    if (value !== undefined) result[name] = value;
  }
  return result;
}

/**
 * One flag: '$env' (environment flag), 'name' (context value truthy), '/field' (form field truthy),
 * 'name=value' / '/field=value' (the value, as a string, equals value), 'name^=value' (starts with
 * it); 'a|b|c' after the operator means any of them.
 */
function flagHolds(flag: string, scope: Scope): boolean {
  if (flag.startsWith('$')) return scope.flags[flag.slice(1) as EnvFlag] === true;
  const [, name = '', operator, expected = ''] = /^([^=^]*)(\^?=)?(.*)$/.exec(flag) ?? [];
  const value = name.startsWith('/') ? readPointer(scope.form, name) : scope.ctx[name];
  if (operator === undefined) return Boolean(value);
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return false;
  const text = String(value);
  const options = expected.split('|');
  return operator === '=' ? options.includes(text) : options.some((option) => text.startsWith(option));
}

/** True when every flag of the condition holds ('!' negates one). No condition holds trivially. */
export function holds(condition: Condition | undefined, scope: Scope): boolean {
  if (condition === undefined) return true;
  const flags = Array.isArray(condition) ? condition : [condition];
  return flags.every((flag) => {
    const negated = flag.startsWith('!');
    const value = flagHolds(negated ? flag.slice(1) : flag, scope);
    return negated ? !value : value;
  });
}

/** An i18n key and its resolved interpolation values. */
export interface ResolvedText {
  key: string;
  values: Record<string, unknown>;
}

export function resolveText(text: TextRef, scope: Scope): ResolvedText {
  if (typeof text === 'string') return { key: text, values: {} };
  return { key: text.key, values: resolveMapping(text.values, scope) };
}

/** Form fields a set of conditions reads ('/field', '/field=value' and '/field^=value' flags). */
export function formFieldsIn(conditions: ReadonlyArray<Condition | undefined>): string[] {
  const fields = new Set<string>();
  for (const condition of conditions) {
    for (const flag of condition === undefined ? [] : Array.isArray(condition) ? condition : [condition]) {
      const match = /^!?\/([^/=^]+)/.exec(flag);
      if (match?.[1]) fields.add(match[1]);
    }
  }
  return [...fields].sort();
}
