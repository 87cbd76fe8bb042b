/**
 * `sameAs: "<property>"` — the value must equal (===) the sibling property
 * of the same object, e.g. `passwordConfirm: { sameAs: "password" }`. It
 * reads the parent object in generated code, so it needs no $data. At the
 * schema root (no parent) it passes.
 * Message key: validation.passwordsDoNotMatch, params { field }.
 */
import { _ } from 'ajv';
import type { ErrorObject, KeywordCxt } from 'ajv';
import { defineKeyword, enUsMessage, type KeywordSpec } from './define.js';

export type SameAsError = ErrorObject<'sameAs', { field: string }, string>;

export const sameAsSpec: KeywordSpec<string> = {
  keyword: 'sameAs',
  schemaType: 'string',
  metaSchema: { type: 'string', minLength: 1 },
  params: (field) => ({ field }),
  code(cxt: KeywordCxt) {
    const { data, it } = cxt;
    const field = cxt.schema as string;
    cxt.fail(_`${it.parentData} !== undefined && ${data} !== ${it.parentData}[${field}]`);
  },
};

export const sameAs = defineKeyword(sameAsSpec, enUsMessage);
