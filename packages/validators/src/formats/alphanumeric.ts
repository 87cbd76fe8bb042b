/**
 * `alphanumeric`: one or more ASCII letters or digits, nothing else.
 * Short strings (what forms hold) go through a table lookup, which beats a
 * call into the regexp engine; long ones through a search for the first
 * other character, whose compiled scan beats a JavaScript loop. Both are
 * linear.
 */
const ALNUM = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') ALNUM[c.charCodeAt(0)] = 1;
/** The first character that is not a letter or digit: the regexp engine's scan beats a JS loop on long input. */
const OTHER = /[^A-Za-z0-9]/;
const SHORT = 64;

export function alphanumeric(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  if (n > SHORT) return !OTHER.test(s);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7a || ALNUM[c] === 0) return false;
  }
  return true;
}
