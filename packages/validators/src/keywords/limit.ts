/**
 * `limit: "name" | "organization" | "defaultItem"` — the input length limits
 * of SPEC §9 (name 150, organization 1000, default item 150), counted in
 * Unicode code points like ajv's maxLength. The same limits are reusable
 * $defs in the app's schemas/defs/limits.json (plain maxLength).
 * Message key: validation.maxLength, params { limit: n } → { maxCount: n }.
 */
import { _ } from 'ajv';
import type { ErrorObject, KeywordCxt } from 'ajv';
import { codePointLengthCode } from './codePoints.js';
import { defineKeyword, enUsMessage, type KeywordSpec } from './define.js';

export const limits = { name: 150, organization: 1000, defaultItem: 150 } as const;
export type LimitName = keyof typeof limits;

export type LimitError = ErrorObject<'limit', { limit: number; name: LimitName }, LimitName>;

export const limitSpec: KeywordSpec<LimitName> = {
  keyword: 'limit',
  type: 'string',
  schemaType: 'string',
  metaSchema: { type: 'string', enum: Object.keys(limits) },
  params: (name) => ({ limit: limits[name], name }),
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const max = limits[cxt.schema as LimitName];
    // Only UTF-16 lengths in (max, 2 × max] need counting; longer fails, shorter passes.
    cxt.fail(_`${codePointLengthCode(gen, data, max + 1, 2 * max)} > ${max}`);
  },
};

export const limit = defineKeyword(limitSpec, enUsMessage);
