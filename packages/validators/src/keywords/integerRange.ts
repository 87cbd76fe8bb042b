/**
 * `integerRange: [min, max]` — a whole number from min to max inclusive.
 * Numbers must be integers; strings (text inputs) must be a canonical
 * decimal integer ("-3", "42"; no "+", leading zeros, spaces or exponent).
 * min and max are integers with min ≤ max (checked when compiling).
 * Message key: validation.integerRange, params { min, max }.
 */
import { _ } from 'ajv';
import type { ErrorObject, KeywordCxt } from 'ajv';
import { defineKeyword, enUsMessage, type KeywordSpec } from './define.js';

export type IntegerRangeError = ErrorObject<'integerRange', { min: number; max: number }, [number, number]>;

export const integerRangeSpec: KeywordSpec<[number, number]> = {
  keyword: 'integerRange',
  type: ['number', 'string'],
  schemaType: 'array',
  metaSchema: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'integer' } },
  params: ([min, max]) => ({ min, max }),
  code(cxt: KeywordCxt) {
    const { data } = cxt;
    const [min, max] = cxt.schema as [number, number];
    if (!(min <= max)) throw new Error(`integerRange: min ${min} is greater than max ${max}`);
    cxt.fail(
      _`!(typeof ${data} == "number" ? Number.isInteger(${data}) && ${data} >= ${min} && ${data} <= ${max} : /^-?(?:0|[1-9][0-9]{0,15})$/.test(${data}) && +${data} >= ${min} && +${data} <= ${max})`,
    );
  },
};

export const integerRange = defineKeyword(integerRangeSpec, enUsMessage);
