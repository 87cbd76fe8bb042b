/** `ip`: an IPv4 or an IPv6 address (see ipv4.ts, ipv6.ts). */
import { ipv4 } from './ipv4.js';
import { ipv6 } from './ipv6.js';

export function ip(s: string): boolean {
  return s.indexOf(':') >= 0 ? ipv6(s) : ipv4(s);
}
