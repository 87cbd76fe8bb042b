/**
 * A one-time code as typed or pasted ("123 456", "123-456", " 123456 ") to its digits, at most
 * `length` of them. The input has no maxlength: the browser would cut a pasted "123 456" to
 * "123 45" before the separators are dropped, losing a digit.
 */
export function codeDigits(text: string, length: number): string {
  return text.replace(/\D/g, '').slice(0, length);
}
