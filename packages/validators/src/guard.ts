/**
 * Keeps the plugin's formats on an ajv instance whatever is added after it. Fastify's compiler
 * (@fastify/ajv-compiler) runs the plugins of its `ajv.plugins` option first and then adds
 * ajv-formats, whose email, hostname, ipv4, ipv6, uri and url would silently replace ours (a
 * `urlSchemes: ["https"]` would then let http:// through). So the instance's `addFormat` is
 * wrapped once: a later registration of a name the plugin registered is ignored, any other name
 * passes through. To use another definition of one of these names, leave it out of the option
 * `formats`.
 *
 * Standalone code: a format added later by another plugin (ajv-formats' date-time) would be
 * looked up in our formats module, where it is missing; that is refused here with what to do.
 */
import type { Code, CodeOptions, Format } from 'ajv';

interface Instance {
  addFormat(name: string, format: Format): unknown;
  opts: { code: CodeOptions };
}

interface Guard {
  own: Set<string>;
  add: (name: string, format: Format) => unknown;
}
const guards = new WeakMap<object, Guard>();

/** Registers formats as the plugin's own on `ajv`: returns the function that adds one. */
export function guardFormats(ajv: Instance, ours: Code | undefined): (name: string, format: Format) => void {
  let guard = guards.get(ajv);
  if (!guard) {
    const original = ajv.addFormat;
    const own = new Set<string>();
    guard = { own, add: (name, format) => original.call(ajv, name, format) };
    guards.set(ajv, guard);
    ajv.addFormat = function addFormat(this: Instance, name: string, format: Format) {
      if (own.has(name)) return this;
      const code = this.opts.code;
      if (code.source && ours && code.formats === ours && !(format instanceof RegExp) && typeof format !== 'string') {
        throw new Error(
          `@frontdoor/validators: format "${name}" was added after the plugin on an ajv that makes standalone code, which would look it up in the plugin's formats module; add that plugin (ajv-formats) before @frontdoor/validators`,
        );
      }
      return original.call(this, name, format);
    };
  }
  const { own, add } = guard;
  return (name, format) => {
    own.add(name);
    add(name, format);
  };
}
