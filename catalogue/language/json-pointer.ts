/**
 * RFC 6901 JSON Pointers, the one place they are encoded and decoded: the runtime reads answers and
 * forms with them, the check names where a problem is, $ref fragments point into files with them.
 */

/** One reference token as it stands in a pointer ('a/b' -> 'a~1b'). */
export const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** A reference token's own text ('a~1b' -> 'a/b'). */
export const unescapePointer = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The reference tokens of a pointer, decoded ('' is the whole document: no tokens). */
export function pointerSegments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.replace(/^\//, '').split('/').map(unescapePointer);
}

/** A pointer from its tokens. */
export function pointerOf(segments: readonly string[]): string {
  return segments.map((segment) => `/${escapePointer(segment)}`).join('');
}

/** Reads a pointer; undefined for any missing step (never throws, never an inherited property). */
export function readPointer(value: unknown, pointer: string): unknown {
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  let current: unknown = value;
  for (const key of pointerSegments(pointer)) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
