/**
 * `kb-number`: a Microsoft Knowledge Base article number, as used for
 * Windows updates: an optional "KB" prefix (any case) and 4–8 digits not
 * starting with 0, e.g. "KB5034441", "kb890830", "4023057".
 */
const RE = /^(?:[Kk][Bb])?[1-9][0-9]{3,7}$/;

export function kbNumber(s: string): boolean {
  return RE.test(s);
}
