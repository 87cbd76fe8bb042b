/**
 * A one-time code as typed or pasted ("123 456", "123-456", " 123456 ") to its digits, at most
 * `length` of them. The input has no maxlength: the browser would cut a pasted "123 456" to
 * "123 45" before the separators are dropped, losing a digit. Arabic-Indic digits (٠١٢…, typed on
 * an Arabic keyboard) and their Persian forms (۰۱۲…) count as the same digits 0–9.
 */
export function codeDigits(text: string, length: number): string {
  return text
    .replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String((d.charCodeAt(0) - 0x0660) % 0x90))
    .replace(/\D/g, '')
    .slice(0, length);
}
