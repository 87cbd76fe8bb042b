/**
 * The host's "in use" checker for the async `inUse` keyword. It lives in the
 * formats module (no ajv import) because standalone code calls
 * `require(<formatsModule>).checkInUse(value, kind)`: the host registers its
 * checker with `setInUseChecker`. This is the process-wide checker, for
 * standalone code and for ajv instances without one of their own (the plugin
 * option `inUse` gives one instance its own checker).
 *
 * The checker is kept on globalThis under a registered symbol, not in a
 * module variable: an ES module host that registers it and CommonJS
 * standalone code that requires the CJS build load two copies of this
 * module, and both must see the same checker.
 */

/** Resolves true when `value` is already in use for `kind` (e.g. "email"). */
export type InUseChecker = (value: string, kind: string) => Promise<boolean> | boolean;

const KEY = Symbol.for('@frontdoor/validators/inUseChecker');
const registry = globalThis as { [KEY]?: InUseChecker };

export function setInUseChecker(fn: InUseChecker | undefined): void {
  if (fn) registry[KEY] = fn;
  else delete registry[KEY];
}

/** Called by compiled schemas. Without a registered checker nothing counts as in use. */
export async function checkInUse(value: string, kind: string): Promise<boolean> {
  const checker = registry[KEY];
  return checker ? !!(await checker(value, kind)) : false;
}
