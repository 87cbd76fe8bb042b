/**
 * `oid`: an object identifier in the SNMP dotted form that begins with a
 * period (SPEC §5), e.g. ".1.3.6.1.2.1.1.5.0". At least two arcs; decimal
 * arcs without leading zeros; the first arc is 0, 1 or 2 and, under 0 or 1,
 * the second is below 40 (X.660); at most 128 arcs (the SNMP limit).
 */
const MAX_ARCS = 128;

export function oid(s: string): boolean {
  const n = s.length;
  if (n < 4 || s.charCodeAt(0) !== 0x2e) return false;
  let arcs = 0;
  let first = -1;
  let i = 0;
  while (i < n) {
    if (s.charCodeAt(i) !== 0x2e) return false;
    i++;
    const start = i;
    while (i < n && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
    const len = i - start;
    if (len === 0 || (len > 1 && s.charCodeAt(start) === 0x30)) return false;
    arcs++;
    if (arcs > MAX_ARCS) return false;
    if (arcs === 1) {
      if (len !== 1) return false;
      first = s.charCodeAt(start) - 0x30;
      if (first > 2) return false;
    } else if (arcs === 2 && first < 2 && (len > 2 || Number(s.slice(start, i)) >= 40)) {
      return false;
    }
  }
  return arcs >= 2;
}
