/** RFC 6901 JSON Pointer read; returns undefined for any missing step (never throws). */
export function readPointer(value: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return pointer === '' ? value : readStep(value, '');
  if (!pointer.startsWith('/')) return undefined;
  let current: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    current = readStep(current, raw.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (current === undefined) return undefined;
  }
  return current;
}

function readStep(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}
