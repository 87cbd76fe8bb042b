/**
 * `alphanumeric`: one or more ASCII letters or digits, nothing else.
 * A table lookup per character: no regular expression, so no call into the
 * regexp engine for the short strings forms hold.
 */
const ALNUM = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ALNUM[c.charCodeAt(0)] = 1;

export function alphanumeric(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7a || ALNUM[c] === 0) return false;
  }
  return true;
}
