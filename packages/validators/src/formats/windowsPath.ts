/**
 * `windows-path`: an absolute Windows path, "C:\dir\file.txt" (a drive
 * letter, a colon and a backslash or slash) or one starting with an
 * environment variable, "%ProgramData%\Vendor". Components are separated by
 * "\" or "/", must not be empty (a trailing separator is fine), must not
 * contain < > : " | ? * or control characters, must not end in a space or
 * a dot (except "." and ".."), and must not be a reserved device name
 * (CON, PRN, AUX, NUL, COM1–9, LPT1–9, with or without extension).
 * At most 32,767 characters. UNC paths are `unc-path`.
 */

const MAX_PATH = 32767;
const RESERVED = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:\..*)?$/i;
const BAD = '<>:"|?*';

/** Checks the separator-delimited components of s[from..). */
export function windowsComponents(s: string, from: number): boolean {
  const n = s.length;
  let start = from;
  for (let i = from; i <= n; i++) {
    const c = i < n ? s.charCodeAt(i) : 0x5c;
    if (c === 0x5c || c === 0x2f) {
      const len = i - start;
      if (len === 0) {
        if (i === n && i > from) return true; // trailing separator
        if (i === n && i === from) return true; // nothing after the root
        return false;
      }
      const comp = s.slice(start, i);
      if (comp !== '.' && comp !== '..') {
        const last = comp.charCodeAt(len - 1);
        if (last === 0x20 || last === 0x2e) return false;
        if (RESERVED.test(comp)) return false;
      }
      start = i + 1;
    } else if (c < 0x20 || BAD.indexOf(s[i]!) >= 0) {
      return false;
    }
  }
  return true;
}

export function windowsPath(s: string): boolean {
  const n = s.length;
  if (n < 3 || n > MAX_PATH) return false;
  const c0 = s.charCodeAt(0) | 0x20;
  if (c0 >= 0x61 && c0 <= 0x7a && s.charCodeAt(1) === 0x3a) {
    const sep = s.charCodeAt(2);
    if (sep !== 0x5c && sep !== 0x2f) return false;
    return windowsComponents(s, 3);
  }
  if (s.charCodeAt(0) === 0x25) {
    // %VAR% then end or a separator
    let i = 1;
    for (; i < n && i <= 256; i++) {
      const c = s.charCodeAt(i);
      const l = c | 0x20;
      if ((l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x28 || c === 0x29) continue;
      break;
    }
    if (i === 1 || i >= n || s.charCodeAt(i) !== 0x25) return false;
    i++;
    if (i === n) return true;
    const sep = s.charCodeAt(i);
    if (sep !== 0x5c && sep !== 0x2f) return false;
    return windowsComponents(s, i + 1);
  }
  return false;
}
