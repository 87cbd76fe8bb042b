/**
 * `url`: an absolute URI by RFC 3986 §3 (scheme ":" hier-part ["?" query]
 * ["#" fragment]), ASCII only, percent-encodings well formed; the host is an
 * IP-literal ([IPv6] or [vX.…]), an IPv4 address or a reg-name. For the web
 * schemes http, https, ws, wss and ftp the authority and a non-empty host
 * are required (RFC 9110 §4.2.1). Any other scheme (mailto:, tel:, urn:)
 * is accepted in its generic form. Relative references are rejected.
 *
 * A single left-to-right pass; no regular expressions.
 */
import { parseIpv6 } from "./ipv6.js";

const UNRESERVED = 1;
const SUB_DELIM = 2;
const CLS = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~") CLS[c.charCodeAt(0)] = UNRESERVED;
for (const c of "!$&'()*+,;=") CLS[c.charCodeAt(0)] = SUB_DELIM;

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/**
 * Scans s[i..end) as characters from unreserved / sub-delims / pct-encoded /
 * the `extra` characters. Returns the index it stopped at (end when all
 * matched), or -1 on a malformed percent-encoding.
 */
function scan(s: string, i: number, end: number, extra: string): number {
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c < 128 && CLS[c] !== 0) {
      i++;
    } else if (c === 0x25) {
      if (i + 2 >= end) return -1;
      if (!isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2))) return -1;
      i += 3;
    } else if (c < 128 && extra.indexOf(s[i]!) >= 0) {
      i++;
    } else {
      return i;
    }
  }
  return i;
}

export interface UriParts {
  scheme: string;
  /** null when the URI has no authority ("//") */
  host: string | null;
}

const WEB_SCHEMES = new Set(["http", "https", "ws", "wss", "ftp"]);

function hostOk(s: string, from: number, to: number): boolean {
  if (s.charCodeAt(from) === 0x5b) {
    if (to - from < 3 || s.charCodeAt(to - 1) !== 0x5d) return false;
    if ((s.charCodeAt(from + 1) | 0x20) === 0x76) {
      // IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
      let i = from + 2;
      const h = i;
      while (i < to - 1 && isHex(s.charCodeAt(i))) i++;
      if (i === h || s.charCodeAt(i) !== 0x2e) return false;
      i++;
      if (i === to - 1) return false;
      for (; i < to - 1; i++) {
        const c = s.charCodeAt(i);
        if (!(c < 128 && CLS[c] !== 0) && c !== 0x3a) return false;
      }
      return true;
    }
    return parseIpv6(s, from + 1, to - 1) !== null;
  }
  // reg-name (IPv4address is a subset of it)
  return scan(s, from, to, "") === to;
}

/** Parses an absolute URI; null when it is not one. */
export function parseUri(s: string): UriParts | null {
  const n = s.length;
  // scheme
  let i = 0;
  const c0 = s.charCodeAt(0) | 0x20;
  if (!(c0 >= 0x61 && c0 <= 0x7a)) return null;
  for (i = 1; i < n; i++) {
    const c = s.charCodeAt(i);
    const l = c | 0x20;
    if ((l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) continue;
    break;
  }
  if (i >= n || s.charCodeAt(i) !== 0x3a) return null;
  const scheme = s.slice(0, i).toLowerCase();
  i++;
  let host: string | null = null;
  if (s.charCodeAt(i) === 0x2f && s.charCodeAt(i + 1) === 0x2f) {
    i += 2;
    let end = i;
    while (end < n) {
      const c = s.charCodeAt(end);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      end++;
    }
    // userinfo
    const at = s.indexOf("@", i);
    let hostStart = i;
    if (at >= 0 && at < end) {
      if (scan(s, i, at, ":") !== at) return null;
      hostStart = at + 1;
    }
    // port: digits after the last ":" that is not inside an IP-literal
    let hostEnd = end;
    const bracket = s.lastIndexOf("]", end - 1);
    const colon = s.lastIndexOf(":", end - 1);
    if (colon >= hostStart && (bracket < hostStart || colon > bracket)) {
      for (let p = colon + 1; p < end; p++) {
        const c = s.charCodeAt(p);
        if (c < 0x30 || c > 0x39) return null;
      }
      hostEnd = colon;
    }
    if (hostEnd > hostStart && !hostOk(s, hostStart, hostEnd)) return null;
    host = s.slice(hostStart, hostEnd);
    i = end;
  }
  // path, query, fragment
  i = scan(s, i, n, ":@/");
  if (i < 0) return null;
  if (i < n && s.charCodeAt(i) === 0x3f) {
    i = scan(s, i + 1, n, ":@/?");
    if (i < 0) return null;
  }
  if (i < n && s.charCodeAt(i) === 0x23) {
    i = scan(s, i + 1, n, ":@/?");
    if (i < 0) return null;
  }
  if (i !== n) return null;
  if (WEB_SCHEMES.has(scheme) && !host) return null;
  return { scheme, host };
}

export function url(s: string): boolean {
  return parseUri(s) !== null;
}
