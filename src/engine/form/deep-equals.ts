/**
 * rjsf's deep equality (@rjsf/utils/lib/deepEquals.js) without fast-equals, about 3 kB brotli of the
 * first load: vite.config.ts puts this module in place of fast-equals for @rjsf/utils, whose only use
 * is `createCustomEqual({ circular: true, areFunctionsEqual: b is a function })`. What rjsf compares
 * (form data, schemas, UI schemas, error schemas, props) is JSON-like with functions and React
 * elements; for those this answers as fast-equals does (tests/engine/deep-equals.test.ts checks it
 * against rjsf's own): numbers by SameValueZero, any two functions equal, objects only of the same
 * constructor, own enumerable keys, React elements without their `_owner`, dates by time, regular
 * expressions by source and flags, maps and sets by content, cycles tolerated. Other built-ins
 * (errors, promises, typed arrays) are equal only when identical.
 * vitest and the studio run rjsf's own module.
 */
type Seen = WeakMap<object, WeakSet<object>>;

function equalKeys(a: Record<PropertyKey, unknown>, b: Record<PropertyKey, unknown>, seen: Seen): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const react = '$$typeof' in a || '$$typeof' in b;
  return keys.every((key) => (react && key === '_owner') || (Object.prototype.propertyIsEnumerable.call(b, key) && equal(a[key], b[key], seen)));
}

function equal(a: unknown, b: unknown, seen: Seen): boolean {
  if (a === b) return true;
  if (a == null || b == null || typeof a !== typeof b) return false;
  if (typeof a === 'number') return a !== a && b !== b;
  if (typeof a === 'function') return true;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (a.constructor !== b.constructor) return false;
  // A pair being compared further up (a cycle) counts as equal there; the rest of the walk decides.
  const pairs = seen.get(a) ?? new WeakSet<object>();
  if (pairs.has(b)) return true;
  seen.set(a, pairs.add(b));
  const result = equalObjects(a, b, seen);
  pairs.delete(b);
  return result;
}

function equalObjects(a: object, b: object, seen: Seen): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i], seen));
  if (a instanceof Date) return equal(a.getTime(), (b as Date).getTime(), seen);
  if (a instanceof RegExp) return a.source === (b as RegExp).source && a.flags === (b as RegExp).flags;
  if (a instanceof Map) {
    const other = [...(b as Map<unknown, unknown>)];
    return a.size === other.length && [...a].every(([key, value]) => other.some(([k, v]) => equal(key, k, seen) && equal(value, v, seen)));
  }
  if (a instanceof Set) {
    const other = [...(b as Set<unknown>)];
    return a.size === other.length && [...a].every((item) => other.some((candidate) => equal(item, candidate, seen)));
  }
  if (a.constructor === Object || a.constructor == null || Object.prototype.toString.call(a) === '[object Object]')
    return equalKeys(a as Record<PropertyKey, unknown>, b as Record<PropertyKey, unknown>, seen);
  return false;
}

export function deepEquals(a: unknown, b: unknown): boolean {
  return equal(a, b, new WeakMap());
}

/** fast-equals' factory as @rjsf/utils/lib/deepEquals.js calls it (its options are that module's: see above). */
export function createCustomEqual(): (a: unknown, b: unknown) => boolean {
  return deepEquals;
}
