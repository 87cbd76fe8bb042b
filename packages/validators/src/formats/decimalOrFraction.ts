/**
 * `decimal-or-fraction`: a decimal number ("2", "0.75", ".5", "-1.25") or a
 * simple fraction ("3/4", "-1/8") with a non-zero denominator. An optional
 * leading + or -; ASCII digits; no exponent, no spaces, no thousands
 * separators.
 */
function digits(s: string, i: number): number {
  while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
  return i;
}

export function decimalOrFraction(s: string): boolean {
  const n = s.length;
  let i = 0;
  if (s.charCodeAt(0) === 0x2b || s.charCodeAt(0) === 0x2d) i = 1;
  const intStart = i;
  i = digits(s, i);
  const intLen = i - intStart;
  if (i === n) return intLen > 0;
  const c = s.charCodeAt(i);
  if (c === 0x2e) {
    const fracStart = i + 1;
    i = digits(s, fracStart);
    return i === n && i > fracStart;
  }
  if (c === 0x2f && intLen > 0) {
    const denStart = i + 1;
    i = digits(s, denStart);
    if (i !== n || i === denStart) return false;
    for (let k = denStart; k < n; k++) if (s.charCodeAt(k) !== 0x30) return true;
    return false; // zero denominator
  }
  return false;
}
