/** `key32`: exactly 32 ASCII letters or digits (a license or API key). */
import { alphanumeric } from './alphanumeric.js';

export function key32(s: string): boolean {
  return s.length === 32 && alphanumeric(s);
}
