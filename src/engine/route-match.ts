/**
 * Whether a path falls under a catalogue route pattern (react-router syntax: ':param', optional
 * '?' segments). A '{name}' segment in the path, as navigate targets write them, matches any
 * segment. Used by the catalogue check and the studio to say which screen a path reaches.
 */
export function routeMatches(pattern: string, target: string): boolean {
  const path = target.split('?')[0] ?? '';
  const want = path.split('/').filter(Boolean);
  const have = pattern.split('/').filter(Boolean);
  let i = 0;
  for (const segment of have) {
    const optional = segment.endsWith('?');
    const w = want[i];
    if (w === undefined) return optional;
    if (segment.startsWith(':') || /^\{[^}]+\}$/.test(w) || segment.replace(/\?$/, '') === w) {
      i += 1;
      continue;
    }
    if (!optional) return false;
  }
  return i === want.length;
}
