/**
 * `uri`: an absolute URI exactly as RFC 3986 §3 defines it
 * (scheme ":" hier-part ["?" query] ["#" fragment]): ASCII only,
 * percent-encodings well formed, the host an IP-literal ([IPv6] or
 * [vX.…]), an IPv4 address or a reg-name (so "999.999.999.999" is a valid
 * reg-name here), the port any run of digits. Any scheme (mailto:, urn:,
 * tel:, javascript:) — this is the syntax of the JSON Schema "uri" format,
 * not a rule for links shown to people: use `url` for those.
 *
 * A single left-to-right pass; no regular expressions. `parseUri` hands the
 * parts to `url` and `secure-url`.
 */
import { parseIpv6 } from './ipv6.js';

const UNRESERVED = 1;
const SUB_DELIM = 2;
const CLS = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~') CLS[c.charCodeAt(0)] = UNRESERVED;
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
  /** lower case */
  scheme: string;
  /** null when the URI has no authority ("//"); "" for "scheme:///path" */
  host: string | null;
  /** what the host is: an [IPv6] literal, an [vX.…] literal, or a reg-name (IPv4 text included) */
  hostKind: 'ipv6' | 'ipvfuture' | 'reg-name' | null;
  /** the text before "@" in the authority; null without one */
  userinfo: string | null;
  /** the digits after the host's ":" ("" for a bare ":"); null without a port */
  port: string | null;
}

function ipLiteralKind(s: string, from: number, to: number): 'ipv6' | 'ipvfuture' | null {
  if (to - from < 3 || s.charCodeAt(to - 1) !== 0x5d) return null;
  if ((s.charCodeAt(from + 1) | 0x20) === 0x76) {
    // IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    let i = from + 2;
    const h = i;
    while (i < to - 1 && isHex(s.charCodeAt(i))) i++;
    if (i === h || s.charCodeAt(i) !== 0x2e) return null;
    i++;
    if (i === to - 1) return null;
    for (; i < to - 1; i++) {
      const c = s.charCodeAt(i);
      if (!(c < 128 && CLS[c] !== 0) && c !== 0x3a) return null;
    }
    return 'ipvfuture';
  }
  return parseIpv6(s, from + 1, to - 1) !== null ? 'ipv6' : null;
}

/** Parses an absolute URI (RFC 3986 §4.3); null when it is not one. */
export function parseUri(s: string): UriParts | null {
  const n = s.length;
  // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
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
  const parts: UriParts = { scheme: s.slice(0, i).toLowerCase(), host: null, hostKind: null, userinfo: null, port: null };
  i++;
  if (s.charCodeAt(i) === 0x2f && s.charCodeAt(i + 1) === 0x2f) {
    // authority = [ userinfo "@" ] host [ ":" port ]
    i += 2;
    let end = i;
    while (end < n) {
      const c = s.charCodeAt(end);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      end++;
    }
    let hostStart = i;
    const at = s.indexOf('@', i);
    if (at >= 0 && at < end) {
      if (scan(s, i, at, ':') !== at) return null;
      parts.userinfo = s.slice(i, at);
      hostStart = at + 1;
    }
    let hostEnd = end;
    if (s.charCodeAt(hostStart) === 0x5b) {
      const close = s.indexOf(']', hostStart);
      if (close < 0 || close >= end) return null;
      hostEnd = close + 1;
      const kind = ipLiteralKind(s, hostStart, hostEnd);
      if (!kind) return null;
      parts.hostKind = kind;
    } else {
      // reg-name = *( unreserved / pct-encoded / sub-delims ); IPv4address is a subset of it
      hostEnd = scan(s, hostStart, end, '');
      if (hostEnd < 0) return null;
      parts.hostKind = 'reg-name';
    }
    if (hostEnd < end) {
      if (s.charCodeAt(hostEnd) !== 0x3a) return null;
      for (let p = hostEnd + 1; p < end; p++) {
        const c = s.charCodeAt(p);
        if (c < 0x30 || c > 0x39) return null;
      }
      parts.port = s.slice(hostEnd + 1, end);
    }
    parts.host = s.slice(hostStart, hostEnd);
    i = end;
  }
  // path, query, fragment (path-abempty / path-absolute / path-rootless / path-empty)
  i = scan(s, i, n, ':@/');
  if (i < 0) return null;
  if (i < n && s.charCodeAt(i) === 0x3f) {
    i = scan(s, i + 1, n, ':@/?');
    if (i < 0) return null;
  }
  if (i < n && s.charCodeAt(i) === 0x23) {
    i = scan(s, i + 1, n, ':@/?');
    if (i < 0) return null;
  }
  return i === n ? parts : null;
}

export function uri(s: string): boolean {
  return parseUri(s) !== null;
}
