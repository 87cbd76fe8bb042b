/**
 * `ip-range`: "start-end", two addresses of the same family (IPv4 or IPv6)
 * with start ≤ end, e.g. "10.0.0.1-10.0.0.254", "2001:db8::1-2001:db8::ff".
 * No spaces around the hyphen.
 */
import { parseIpv4 } from './ipv4.js';
import { parseIpv6 } from './ipv6.js';

export function ipRange(s: string): boolean {
  const dash = s.indexOf('-');
  if (dash < 0 || s.indexOf('-', dash + 1) >= 0) return false;
  const v6a = s.lastIndexOf(':', dash) >= 0;
  const v6b = s.indexOf(':', dash) >= 0;
  if (v6a !== v6b) return false;
  if (!v6a) {
    const a = parseIpv4(s, 0, dash);
    const b = parseIpv4(s, dash + 1);
    return a >= 0 && b >= 0 && a <= b;
  }
  const a = parseIpv6(s, 0, dash);
  const b = parseIpv6(s, dash + 1);
  if (!a || !b) return false;
  for (let k = 0; k < 8; k++) {
    if (a[k]! !== b[k]!) return a[k]! < b[k]!;
  }
  return true;
}
