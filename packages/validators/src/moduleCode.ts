import { _ } from 'ajv';
import type { Code } from 'ajv';

/**
 * Code that loads `mod` in ajv standalone code: `require(mod)` in CommonJS,
 * `(await import(mod))` in an ES module (ajv's `code.esm`), where there is no
 * require. ajv puts these references at the top level of the generated
 * module, where top-level await is allowed.
 */
export function moduleCode(esm: boolean | undefined, mod: string): Code {
  return esm ? _`(await import(${mod}))` : _`require(${mod})`;
}
