/**
 * `notBlank: true` — a string whose trim() is non-empty (SPEC §5 "Required
 * fields: trimmed non-empty"). `notBlank: false` imposes nothing.
 * Message key: validation.required.
 */
import { _ } from 'ajv';
import type { CodeKeywordDefinition, ErrorObject, KeywordCxt } from 'ajv';

export type NotBlankError = ErrorObject<'notBlank', Record<string, never>, boolean>;

export const notBlank: CodeKeywordDefinition = {
  keyword: 'notBlank',
  type: 'string',
  schemaType: 'boolean',
  metaSchema: { type: 'boolean' },
  error: { message: 'validation.required' },
  code(cxt: KeywordCxt) {
    if (cxt.schema !== true) return;
    cxt.fail(_`${cxt.data}.trim() === ""`);
  },
};
