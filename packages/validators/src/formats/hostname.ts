/**
 * `hostname`: an RFC 1123 host name (letters, digits, hyphens; labels of 1–63
 * characters that neither start nor end with a hyphen; at most 253 characters
 * in all; no trailing dot). Labels starting with `xn--` must be valid IDNA
 * A-labels (RFC 5890/5891): see ./idna.ts. The last label is not all digits
 * (RFC 1123 §2.1, RFC 3696 §2): `1.2.3.4` and `example.0` are not host names,
 * and a browser would read such a name as an IPv4 address.
 */
import { isValidALabel } from './idna.js';

const MAX_NAME = 253;
const MAX_LABEL = 63;

function isLdh(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x2d // -
  );
}

/**
 * Checks a dot-separated name label by label, in one pass.
 * `allowUnderscore` lets dns-name admit the underscore.
 */
export function checkLabels(s: string, allowUnderscore: boolean): boolean {
  const n = s.length;
  if (n === 0 || n > MAX_NAME) return false;
  let start = 0;
  let digitsOnly = true;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? s.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      const len = i - start;
      if (len === 0 || len > MAX_LABEL) return false;
      if (s.charCodeAt(start) === 0x2d || s.charCodeAt(i - 1) === 0x2d) return false;
      if (i === n && digitsOnly) return false; // all-numeric top-level label
      if (
        len >= 4 &&
        s.charCodeAt(start + 2) === 0x2d &&
        s.charCodeAt(start + 3) === 0x2d &&
        (s.charCodeAt(start) | 0x20) === 0x78 && // x
        (s.charCodeAt(start + 1) | 0x20) === 0x6e // n
      ) {
        if (!isValidALabel(s.slice(start, i))) return false;
      }
      start = i + 1;
      digitsOnly = true;
    } else if (c >= 0x30 && c <= 0x39) {
      // a digit keeps digitsOnly as it is
    } else if (isLdh(c) || (allowUnderscore && c === 0x5f)) {
      digitsOnly = false;
    } else {
      return false;
    }
  }
  return true;
}

export function hostname(s: string): boolean {
  return checkLabels(s, false);
}
