/**
 * `inUse: "<kind>"` — async: the value must not already be in use, as the
 * host's checker says (e.g. `email: { format: "email", inUse: "email" }` on
 * registration). Needs a schema with `$async: true`. Empty strings are not
 * checked. Compiled code calls the checker of its ajv instance (the plugin
 * option `inUse`), else the process-wide one of `setInUseChecker`;
 * standalone code has no instance and calls `checkInUse(value, kind)` of
 * `formatsModule`, i.e. the process-wide checker.
 * Message key: validation.inUse (validation.emailInUse for kind "email"),
 * params { kind }.
 */
import { _ } from 'ajv';
import type { CodeKeywordDefinition, ErrorObject, KeywordCxt } from 'ajv';
import { checkInUse } from '../inUseRegistry.js';
import { moduleCode } from '../moduleCode.js';
import { defineKeyword, enUsMessage, type MessageOf } from './define.js';

export type InUseError = ErrorObject<'inUse', { kind: string }, string>;

/**
 * Builds the keyword: `formatsModule` is where standalone code finds checkInUse; `check` is what
 * compiled code calls (default: the process-wide checker).
 */
export function inUseKeyword(
  formatsModule: string,
  message: MessageOf = enUsMessage,
  check: (value: string, kind: string) => Promise<boolean> = checkInUse,
): CodeKeywordDefinition {
  return defineKeyword<string>(
    {
      keyword: 'inUse',
      type: 'string',
      schemaType: 'string',
      metaSchema: { type: 'string', minLength: 1 },
      params: (kind) => ({ kind }),
      code(cxt: KeywordCxt) {
        const { gen, data, it } = cxt;
        if (!it.schemaEnv.$async) throw new Error('inUse: the schema needs "$async": true');
        const fn = gen.scopeValue('func', { ref: check, code: _`${moduleCode(it.opts.code.esm, formatsModule)}.checkInUse` });
        cxt.fail(_`${data} !== "" && (await ${fn}(${data}, ${cxt.schema as string}))`);
      },
    },
    message,
  );
}
