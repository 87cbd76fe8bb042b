/** `key32`: exactly 32 ASCII letters or digits (a license or API key). */
const RE = /^[A-Za-z0-9]{32}$/;

export function key32(s: string): boolean {
  return RE.test(s);
}
