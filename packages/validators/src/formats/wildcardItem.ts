/**
 * `wildcard-item`: an item of a wildcard list (SPEC §5): at least 3
 * characters, with the wildcard "*" as its first or last character, and at
 * least one character that is neither "*" nor white space ("*.log",
 * "backup*", "*tmp*").
 */
export function wildcardItem(s: string): boolean {
  const n = s.length;
  if (n < 3) return false;
  if (s.charCodeAt(0) !== 0x2a && s.charCodeAt(n - 1) !== 0x2a) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x2a && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
  }
  return false;
}
