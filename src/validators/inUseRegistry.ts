/**
 * The host's "in use" checker for the async `inUse` keyword. It lives in the
 * formats module (no ajv import) because standalone code calls
 * `require(<formatsModule>).checkInUse(value, kind)`: the host registers its
 * checker with `setInUseChecker` (or the plugin option `inUse`) on the same
 * module instance the compiled code requires.
 */

/** Resolves true when `value` is already in use for `kind` (e.g. "email"). */
export type InUseChecker = (value: string, kind: string) => Promise<boolean> | boolean;

let checker: InUseChecker | undefined;

export function setInUseChecker(fn: InUseChecker | undefined): void {
  checker = fn;
}

/** Called by compiled schemas. Without a registered checker nothing counts as in use. */
export async function checkInUse(value: string, kind: string): Promise<boolean> {
  return checker ? !!(await checker(value, kind)) : false;
}
