import type { Mapping, Source, TextRef } from './types';
import type { ConditionScope } from './conditions';
import { readPointer } from './json-pointer';

/** Everything a source or a condition (conditions.ts) can read. Immutable: outcomes produce a new ctx. */
export interface Scope extends ConditionScope {
  params: Record<string, string | undefined>;
  query: Record<string, string>;
  env: Record<string, unknown>;
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

/** An i18n key and its resolved interpolation values. */
export interface ResolvedText {
  key: string;
  values: Record<string, unknown>;
}

export function resolveText(text: TextRef, scope: Scope): ResolvedText {
  if (typeof text === 'string') return { key: text, values: {} };
  return { key: text.key, values: resolveMapping(text.values, scope) };
}
