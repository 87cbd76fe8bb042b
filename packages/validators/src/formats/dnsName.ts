/**
 * `dns-name`: a DNS domain name as written in zone data and DNS settings,
 * wider than `hostname`: labels may contain "_" (service labels such as
 * "_sip._tcp.example.com", "_dmarc"), the first label may be the wildcard
 * "*", and one trailing dot (a fully qualified name) is allowed. Otherwise
 * the hostname rules hold: 1–63 characters a label, no leading or trailing
 * hyphen, valid IDNA A-labels, at most 253 characters without the final dot.
 */
import { checkLabels } from './hostname.js';

export function dnsName(s: string): boolean {
  let name = s;
  if (name.length > 1 && name.charCodeAt(name.length - 1) === 0x2e) name = name.slice(0, -1);
  if (name.startsWith('*.')) name = name.slice(2);
  else if (name === '*') return false;
  return checkLabels(name, true);
}
