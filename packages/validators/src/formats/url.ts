/**
 * `url`: a web address that is safe to show as a link. An absolute RFC 3986
 * URI (see uri.ts) with
 *
 * - a scheme from an allow-list: http, https and ftp by default (plugin
 *   option `urlSchemes`); javascript:, vbscript:, data: and file: can never
 *   be allowed, so a stored value can't become a script link;
 * - an authority ("//") with a host that is a `hostname` (letters, digits,
 *   hyphens; no empty label, no leading or trailing hyphen, valid xn--
 *   labels, no all-numeric last label), a dotted-quad IPv4 address or a
 *   bracketed IPv6 address. A host that a browser would re-read as another
 *   IPv4 address (`3628126748`, `123.123.123`, `300.0.0.1`, `0x7f.1`, the
 *   WHATWG "ends in a number" rule) is rejected;
 * - an optional port 0–65535 (empty means the default) and optional
 *   credentials `user:password` that are not empty (`http://@host` and
 *   `http://:@host` are not);
 * - at most 8,000 characters, the length RFC 9110 §4.1 asks every HTTP
 *   sender and recipient to support (longer is rejected before parsing).
 */
import { hostname } from './hostname.js';
import { ipv4 } from './ipv4.js';
import { parseUri, type UriParts } from './uri.js';

/** The schemes `url` accepts unless the plugin option `urlSchemes` says otherwise. */
export const DEFAULT_URL_SCHEMES: readonly string[] = ['http', 'https', 'ftp'];

/** Schemes that run code or read local files when a link is followed; never allowed. */
export const FORBIDDEN_URL_SCHEMES: readonly string[] = ['javascript', 'vbscript', 'data', 'file'];

const MAX_PORT_DIGITS = 5;
/** RFC 9110 §4.1: "at least 8000 octets" of URI must be supported; beyond that a server may answer 414. */
export const MAX_URL_LENGTH = 8000;

/** No port, an empty one ("host:" means the default, RFC 3986 §3.2.3) or 0–65535. */
function portOk(port: string | null): boolean {
  if (port === null || port === '') return true;
  let i = 0;
  while (i < port.length - 1 && port.charCodeAt(i) === 0x30) i++; // leading zeros
  return port.length - i <= MAX_PORT_DIGITS && Number(port) <= 65535;
}

/** WHATWG URL "ends in a number": a last label of digits or 0x + hex makes the host an IPv4 number. */
function endsInHexNumber(host: string): boolean {
  const last = host.lastIndexOf('.') + 1;
  if (host.length - last < 2 || host.charCodeAt(last) !== 0x30 || (host.charCodeAt(last + 1) | 0x20) !== 0x78) return false;
  for (let i = last + 2; i < host.length; i++) {
    const c = host.charCodeAt(i);
    const l = c | 0x20;
    if (!((c >= 0x30 && c <= 0x39) || (l >= 0x61 && l <= 0x66))) return false;
  }
  return true;
}

/** "user:password" with something besides the colons ("http://@host", "http://:@host" are not). */
function hasCredentials(userinfo: string): boolean {
  for (let i = 0; i < userinfo.length; i++) if (userinfo.charCodeAt(i) !== 0x3a) return true;
  return false;
}

/** True when the parsed URI is a web address with one of `schemes` (lower case). */
export function isWebUrl(u: UriParts | null, schemes: readonly string[]): boolean {
  if (u === null || u.host === null || u.host === '' || !schemes.includes(u.scheme)) return false;
  if (FORBIDDEN_URL_SCHEMES.includes(u.scheme)) return false;
  if (u.userinfo !== null && !hasCredentials(u.userinfo)) return false;
  if (!portOk(u.port)) return false;
  if (u.hostKind === 'ipv6') return true;
  if (u.hostKind !== 'reg-name') return false;
  return ipv4(u.host) || (hostname(u.host) && !endsInHexNumber(u.host));
}

/**
 * A `url` check for another scheme list (the plugin's `urlSchemes` option).
 * Throws when a scheme is malformed or one of FORBIDDEN_URL_SCHEMES.
 */
export function urlWithSchemes(schemes: readonly string[]): (s: string) => boolean {
  const list = schemes.map((scheme) => scheme.toLowerCase());
  for (const scheme of list) {
    if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) throw new Error(`@frontdoor/validators: "${scheme}" is not a URI scheme`);
    if (FORBIDDEN_URL_SCHEMES.includes(scheme)) throw new Error(`@frontdoor/validators: the scheme "${scheme}" can never be allowed in url`);
  }
  if (list.length === 0) throw new Error('@frontdoor/validators: urlSchemes is empty');
  return (s: string) => s.length <= MAX_URL_LENGTH && isWebUrl(parseUri(s), list);
}

export function url(s: string): boolean {
  return s.length <= MAX_URL_LENGTH && isWebUrl(parseUri(s), DEFAULT_URL_SCHEMES);
}
