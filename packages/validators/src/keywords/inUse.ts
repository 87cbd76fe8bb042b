/**
 * `inUse: "<kind>"` — async: the value must not already be in use, as the
 * host's checker says (e.g. `email: { format: "email", inUse: "email" }` on
 * registration). Needs a schema with `$async: true`. Empty strings are not
 * checked. The checker is registered with the plugin option `inUse` or with
 * `setInUseChecker` from @frontdoor/validators/formats; compiled code calls
 * `checkInUse(value, kind)` from that module (standalone: from
 * `formatsModule`). Message key: validation.inUse (validation.emailInUse for
 * kind "email"), params { kind }.
 */
import { _ } from 'ajv';
import type { CodeKeywordDefinition, ErrorObject, KeywordCxt } from 'ajv';
import { checkInUse } from '../inUseRegistry.js';
import { moduleCode } from '../moduleCode.js';

export type InUseError = ErrorObject<'inUse', { kind: string }, string>;

/** Builds the keyword; `formatsModule` is where standalone code finds checkInUse. */
export function inUseKeyword(formatsModule: string): CodeKeywordDefinition {
  return {
    keyword: 'inUse',
    type: 'string',
    schemaType: 'string',
    metaSchema: { type: 'string', minLength: 1 },
    error: {
      message: 'validation.inUse',
      params: ({ schema }) => _`{kind: ${schema as string}}`,
    },
    code(cxt: KeywordCxt) {
      const { gen, data, it } = cxt;
      if (!it.schemaEnv.$async) throw new Error('inUse: the schema needs "$async": true');
      const fn = gen.scopeValue('func', { ref: checkInUse, code: _`${moduleCode(it.opts.code.esm, formatsModule)}.checkInUse` });
      cxt.fail(_`${data} !== "" && (await ${fn}(${data}, ${cxt.schema as string}))`);
    },
  };
}
