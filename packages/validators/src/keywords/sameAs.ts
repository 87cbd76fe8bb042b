/**
 * `sameAs: "<property>"` — the value must equal (===) the sibling property
 * of the same object, e.g. `passwordConfirm: { sameAs: "password" }`. It
 * reads the parent object in generated code, so it needs no $data. At the
 * schema root (no parent) it passes.
 * Message key: validation.passwordsDoNotMatch, params { field }.
 */
import { _ } from 'ajv';
import type { CodeKeywordDefinition, ErrorObject, KeywordCxt } from 'ajv';

export type SameAsError = ErrorObject<'sameAs', { field: string }, string>;

export const sameAs: CodeKeywordDefinition = {
  keyword: 'sameAs',
  schemaType: 'string',
  metaSchema: { type: 'string', minLength: 1 },
  error: {
    message: 'validation.passwordsDoNotMatch',
    params: ({ schema }) => _`{field: ${schema as string}}`,
  },
  code(cxt: KeywordCxt) {
    const { data, it } = cxt;
    const field = cxt.schema as string;
    cxt.fail(_`${it.parentData} !== undefined && ${data} !== ${it.parentData}[${field}]`);
  },
};
