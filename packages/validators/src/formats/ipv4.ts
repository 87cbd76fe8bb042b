/**
 * `ipv4`: dotted-quad IPv4 address (RFC 791 text form as in RFC 3986
 * IPv4address): exactly four decimal octets 0–255, ASCII digits only, no
 * leading zeros ("0" itself is fine), no sign, no whitespace, no shorthand.
 */

/** Parses a dotted quad into a 32-bit unsigned number; -1 when invalid. */
export function parseIpv4(s: string, from = 0, to = s.length): number {
  let value = 0;
  let parts = 0;
  let i = from;
  if (to - from > 15 || to - from < 7) return -1;
  while (parts < 4) {
    const start = i;
    let octet = 0;
    while (i < to) {
      const c = s.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      octet = octet * 10 + (c - 0x30);
      i++;
    }
    const len = i - start;
    if (len === 0 || len > 3 || octet > 255) return -1;
    if (len > 1 && s.charCodeAt(start) === 0x30) return -1; // leading zero
    value = value * 256 + octet;
    parts++;
    if (parts < 4) {
      if (i >= to || s.charCodeAt(i) !== 0x2e) return -1;
      i++;
    }
  }
  return i === to ? value : -1;
}

export function ipv4(s: string): boolean {
  return parseIpv4(s) >= 0;
}
