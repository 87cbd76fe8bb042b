/**
 * `cidr`: an IPv4 address with a prefix length 0–32, or an IPv6 address with
 * a prefix length 0–128 (RFC 4632, RFC 4291 §2.3): "10.0.0.0/8", "2001:db8::/32".
 * The prefix is decimal without leading zeros. Host bits may be set
 * ("192.168.1.5/24", interface notation), as most network tools accept.
 */
import { parseIpv4 } from './ipv4.js';
import { parseIpv6 } from './ipv6.js';

export function cidr(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const prefix = s.slice(slash + 1);
  if (!/^(?:0|[1-9][0-9]{0,2})$/.test(prefix)) return false;
  const bits = Number(prefix);
  if (s.lastIndexOf(':', slash) >= 0) return bits <= 128 && parseIpv6(s, 0, slash) !== null;
  return bits <= 32 && parseIpv4(s, 0, slash) >= 0;
}
