/**
 * `passwordPolicy: true` — SPEC §5 password rule: 8 to 72 characters
 * (Unicode code points, like ajv's minLength) and at least 3 of the 4
 * classes lower case letter (\p{Ll}), upper case letter (\p{Lu}), digit
 * (\p{Nd}) and special character (anything that is not a letter or a
 * number, space included). `passwordPolicy: false` imposes nothing.
 * The length is settled from the UTF-16 length first (a code point is one
 * or two units), so a long input is rejected without being scanned.
 * Message key: validation.password.
 */
import { _ } from 'ajv';
import type { ErrorObject } from 'ajv';
import { codePointLength, codePointLengthCode } from './codePoints.js';
import { defineKeyword, enUsMessage, stringSwitchSpec, type KeywordSpec } from './define.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72;
export const PASSWORD_MIN_CLASSES = 3;

export type PasswordPolicyError = ErrorObject<'passwordPolicy', Record<string, never>, boolean>;

/** The same rule as a plain function (no ajv), for code outside schemas. */
export function meetsPasswordPolicy(s: string): boolean {
  const n = codePointLength(s, PASSWORD_MIN, 2 * PASSWORD_MAX);
  if (n < PASSWORD_MIN || n > PASSWORD_MAX) return false;
  const classes = (/\p{Ll}/u.test(s) ? 1 : 0) + (/\p{Lu}/u.test(s) ? 1 : 0) + (/\p{Nd}/u.test(s) ? 1 : 0) + (/[^\p{L}\p{N}]/u.test(s) ? 1 : 0);
  return classes >= PASSWORD_MIN_CLASSES;
}

export const passwordPolicySpec: KeywordSpec<boolean> = stringSwitchSpec('passwordPolicy', ({ gen, data }) => {
  // A UTF-16 length outside [MIN, 2 × MAX] decides alone; otherwise code points are counted.
  const n = codePointLengthCode(gen, data, PASSWORD_MIN, 2 * PASSWORD_MAX);
  return _`${n} < ${PASSWORD_MIN} || ${n} > ${PASSWORD_MAX} || ((/\\p{Ll}/u.test(${data}) ? 1 : 0) + (/\\p{Lu}/u.test(${data}) ? 1 : 0) + (/\\p{Nd}/u.test(${data}) ? 1 : 0) + (/[^\\p{L}\\p{N}]/u.test(${data}) ? 1 : 0)) < ${PASSWORD_MIN_CLASSES}`;
});

export const passwordPolicy = defineKeyword(passwordPolicySpec, enUsMessage);
