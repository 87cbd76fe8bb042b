/** `alphanumeric`: one or more ASCII letters or digits, nothing else. */
const RE = /^[A-Za-z0-9]+$/;

export function alphanumeric(s: string): boolean {
  return RE.test(s);
}
