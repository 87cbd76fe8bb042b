/**
 * `@frontdoor/validators/formats`: the format functions, with no ajv import,
 * so a browser bundle that runs precompiled (standalone) validators pulls in
 * only these functions. Standalone code refers to them as
 * `require("@frontdoor/validators/formats").formats["<name>"]`.
 * One format per file in ./formats/; each file documents its rules.
 */
import { alphanumeric } from './formats/alphanumeric.js';
import { cidr } from './formats/cidr.js';
import { decimalOrFraction } from './formats/decimalOrFraction.js';
import { dnsName } from './formats/dnsName.js';
import { email } from './formats/email.js';
import { hostname } from './formats/hostname.js';
import { ip } from './formats/ip.js';
import { ipRange } from './formats/ipRange.js';
import { ipv4 } from './formats/ipv4.js';
import { ipv6 } from './formats/ipv6.js';
import { kbNumber } from './formats/kbNumber.js';
import { key32 } from './formats/key32.js';
import { macPath } from './formats/macPath.js';
import { mfaCode } from './formats/mfaCode.js';
import { oid } from './formats/oid.js';
import { secureUrl } from './formats/secureUrl.js';
import { uncPath } from './formats/uncPath.js';
import { uri } from './formats/uri.js';
import { url } from './formats/url.js';
import { wildcardItem } from './formats/wildcardItem.js';
import { windowsPath } from './formats/windowsPath.js';

export {
  alphanumeric,
  cidr,
  decimalOrFraction,
  dnsName,
  email,
  hostname,
  ip,
  ipRange,
  ipv4,
  ipv6,
  kbNumber,
  key32,
  macPath,
  mfaCode,
  oid,
  secureUrl,
  uncPath,
  uri,
  url,
  wildcardItem,
  windowsPath,
};
export { parseIpv4 } from './formats/ipv4.js';
export { parseIpv6 } from './formats/ipv6.js';
export { parseUri, type UriParts } from './formats/uri.js';
export { DEFAULT_URL_SCHEMES, FORBIDDEN_URL_SCHEMES, MAX_URL_LENGTH, urlWithSchemes } from './formats/url.js';
export { checkInUse, setInUseChecker, type InUseChecker } from './inUseRegistry.js';

/** A format check: true when the string conforms. */
export type FormatCheck = (s: string) => boolean;

/** Every format of the plugin, keyed by its schema name. */
export const formats = {
  ipv4,
  ipv6,
  ip,
  cidr,
  'ip-range': ipRange,
  url,
  'secure-url': secureUrl,
  uri,
  'windows-path': windowsPath,
  'mac-path': macPath,
  'unc-path': uncPath,
  hostname,
  'dns-name': dnsName,
  email,
  alphanumeric,
  'kb-number': kbNumber,
  key32,
  oid,
  'decimal-or-fraction': decimalOrFraction,
  'wildcard-item': wildcardItem,
  'mfa-code': mfaCode,
} as const satisfies Record<string, FormatCheck>;

export type FormatName = keyof typeof formats;
export const formatNames = Object.keys(formats) as FormatName[];
