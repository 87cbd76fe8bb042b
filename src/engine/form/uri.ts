/**
 * The two fast-uri functions @rjsf/utils calls (findSchemaDefinition), over the browser's URL
 * (vite.config.ts puts this module in place of fast-uri for @rjsf/utils; ajv never ships).
 * They matter only for schemas with `$id`s; screens have none (refs are inlined at build time).
 * Relative bases, which URL cannot take, resolve as fast-uri does for the cases rjsf meets:
 * a fragment or an absolute reference as is, else the reference replaces the base's last segment.
 */
function resolve(base: string | undefined, ref: string): string {
  if (!base) return ref;
  try {
    return new URL(ref, base).href;
  } catch {
    if (ref.startsWith('#')) return base.replace(/#.*$/, '') + ref;
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('/')) return ref;
    return base.replace(/#.*$/, '').replace(/[^/]*$/, '') + ref;
  }
}

function normalize(uri: string): string {
  try {
    return new URL(uri).href;
  } catch {
    return uri;
  }
}

function equal(a: string, b: string): boolean {
  return normalize(a) === normalize(b);
}

export default { resolve, equal };
