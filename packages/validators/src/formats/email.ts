/**
 * `email`: a practical RFC 5321/5322 address, the one the sign-in and
 * registration screens accept.
 *
 * - local part: dot-atom only (RFC 5322 §3.2.3 atext: letters, digits and
 *   ! # $ % & ' * + - / = ? ^ _ ` { | } ~), 1–64 characters, no leading,
 *   trailing or doubled dot. Quoted local parts are rejected on purpose.
 * - domain: a host name (see hostname.ts, IDNA A-labels included) with at
 *   least two labels and a top-level label of two or more letters or an
 *   A-label (`xn--…`), as every delegated top-level domain is.
 *   Address literals (`[127.0.0.1]`, `[IPv6:…]`) are rejected on purpose.
 * - at most 254 characters in all (RFC 5321 forward-path limit).
 */
import { hostname } from './hostname.js';

const MAX_ADDRESS = 254;
const MAX_LOCAL = 64;

// RFC 5322 atext, as a lookup table over ASCII.
const ATEXT = new Uint8Array(128);
for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~") {
  ATEXT[ch.charCodeAt(0)] = 1;
}

export function email(s: string): boolean {
  const n = s.length;
  if (n < 3 || n > MAX_ADDRESS) return false;
  const at = s.lastIndexOf('@');
  if (at < 1 || at > MAX_LOCAL) return false;
  // local part: dot-atom
  let prevDot = true; // a leading dot is an error
  for (let i = 0; i < at; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) {
      if (prevDot) return false;
      prevDot = true;
    } else if (c < 128 && ATEXT[c] === 1) {
      prevDot = false;
    } else {
      return false;
    }
  }
  if (prevDot) return false; // trailing dot
  const domain = s.slice(at + 1);
  if (!hostname(domain)) return false;
  const tld = domain.lastIndexOf('.') + 1;
  if (tld === 0 || domain.length - tld < 2) return false;
  if (domain.slice(tld, tld + 4).toLowerCase() === 'xn--') return true; // an A-label, checked by hostname()
  for (let i = tld; i < domain.length; i++) {
    const l = domain.charCodeAt(i) | 0x20;
    if (l < 0x61 || l > 0x7a) return false;
  }
  return true;
}
