/**
 * `notBlank: true` — a string whose trim() is non-empty (SPEC §5 "Required
 * fields: trimmed non-empty"). `notBlank: false` imposes nothing.
 * Message key: validation.required (en-us: "Required").
 */
import { _ } from 'ajv';
import type { ErrorObject, KeywordCxt } from 'ajv';
import { defineKeyword, enUsMessage, type KeywordSpec } from './define.js';

export type NotBlankError = ErrorObject<'notBlank', Record<string, never>, boolean>;

export const notBlankSpec: KeywordSpec<boolean> = {
  keyword: 'notBlank',
  type: 'string',
  schemaType: 'boolean',
  metaSchema: { type: 'boolean' },
  code(cxt: KeywordCxt) {
    if (cxt.schema !== true) return;
    cxt.fail(_`${cxt.data}.trim() === ""`);
  },
};

export const notBlank = defineKeyword(notBlankSpec, enUsMessage);
