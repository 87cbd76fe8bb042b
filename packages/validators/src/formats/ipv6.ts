/**
 * `ipv6`: IPv6 address in the text forms of RFC 4291 §2.2: eight groups of
 * 1–4 hex digits, at most one "::", optionally ending in an embedded dotted
 * quad (which counts as two groups). No zone id, no prefix, no brackets.
 */
import { parseIpv4 } from './ipv4.js';

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/** Parses an IPv6 address into its eight 16-bit groups; null when invalid. */
export function parseIpv6(s: string, from = 0, to = s.length): number[] | null {
  if (to - from < 2 || to - from > 45) return null;
  const head: number[] = [];
  const tail: number[] = [];
  let groups = head;
  let i = from;
  let compressed = false;
  if (s.charCodeAt(i) === 0x3a) {
    if (s.charCodeAt(i + 1) !== 0x3a) return null;
    compressed = true;
    groups = tail;
    i += 2;
    if (i === to) return new Array<number>(8).fill(0);
  }
  for (;;) {
    // one group, or an embedded IPv4 address at the end
    const start = i;
    let v = 0;
    while (i < to && i - start < 5) {
      const h = hexVal(s.charCodeAt(i));
      if (h < 0) break;
      v = v * 16 + h;
      i++;
    }
    const len = i - start;
    if (i < to && s.charCodeAt(i) === 0x2e) {
      // embedded IPv4: the rest of the string
      const v4 = parseIpv4(s, start, to);
      if (v4 < 0) return null;
      groups.push(Math.floor(v4 / 65536), v4 % 65536);
      i = to;
    } else {
      if (len === 0 || len > 4) return null;
      groups.push(v);
    }
    if (head.length + tail.length > 8) return null;
    if (i === to) break;
    if (s.charCodeAt(i) !== 0x3a) return null;
    i++;
    if (i < to && s.charCodeAt(i) === 0x3a) {
      if (compressed) return null;
      compressed = true;
      groups = tail;
      i++;
      if (i === to) break;
    } else if (i === to) {
      return null; // trailing single colon
    }
  }
  const count = head.length + tail.length;
  if (compressed ? count > 7 : count !== 8) return null;
  const out = head.slice();
  for (let k = count; k < 8; k++) out.push(0);
  for (let k = 0; k < tail.length; k++) out[8 - tail.length + k] = tail[k]!;
  return out;
}

export function ipv6(s: string): boolean {
  return parseIpv6(s) !== null;
}
