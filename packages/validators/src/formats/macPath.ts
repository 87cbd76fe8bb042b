/**
 * `mac-path`: an absolute macOS (POSIX) path, "/Library/Logs/x.log", or one
 * relative to the home folder, "~" or "~/Documents". No NUL or other control
 * characters, no empty components ("//"; a trailing "/" is fine), components
 * of at most 255 characters, at most 1,024 characters in all (PATH_MAX).
 */

const MAX_PATH = 1024;
const MAX_NAME = 255;

export function macPath(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > MAX_PATH) return false;
  let i: number;
  if (s.charCodeAt(0) === 0x2f) i = 1;
  else if (s.charCodeAt(0) === 0x7e) {
    if (n === 1) return true;
    if (s.charCodeAt(1) !== 0x2f) return false;
    i = 2;
  } else return false;
  let start = i;
  for (; i <= n; i++) {
    const c = i < n ? s.charCodeAt(i) : 0x2f;
    if (c === 0x2f) {
      const len = i - start;
      if (len === 0 && i < n) return false;
      if (len > MAX_NAME) return false;
      start = i + 1;
    } else if (c < 0x20 || c === 0x7f) {
      return false;
    }
  }
  return true;
}
