/**
 * Shapes of values the code checks before it uses them, each written once. The forms' own checks are
 * the JSON Schemas' (schemas/defs: email.json's format, phone.json's E.164 pattern).
 */

/**
 * Looks like an email address: a local part of at most 64 characters and a domain of at most 255
 * (RFC 5321's limits), no spaces, and none of the characters that end an address in text or markup
 * (<>"()). A shape, not a check that the address exists: the server's answers say that.
 */
export const EMAIL_SHAPE = /^[^\s@<>"()]{1,64}@[^\s@<>"()]{1,255}$/;

export function looksLikeEmail(value: unknown): value is string {
  return typeof value === 'string' && EMAIL_SHAPE.test(value);
}
