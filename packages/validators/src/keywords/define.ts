/**
 * A keyword is written as a spec (its ajv definition without `error`, and the params its errors
 * report as plain values of its schema value); `defineKeyword` adds the error with a message made
 * by `message`. The message is settled when a schema compiles (every value it needs is in the
 * schema), so compiled and standalone code carry plain text in the chosen language.
 */
import { stringify } from 'ajv';
import type { Code, CodeKeywordDefinition, KeywordCxt } from 'ajv';
import { messageFor, type ErrorLike } from '../messages.js';

/** Makes a keyword error's `message` from the error (keyword and params). */
export type MessageOf = (error: ErrorLike) => string;

/** The en-us text (the default of the plugin's option `language`). */
export const enUsMessage: MessageOf = (error) => messageFor(error);

export interface KeywordSpec<S> extends Omit<CodeKeywordDefinition, 'error'> {
  /** The error's params for a schema value (none: `{}`). */
  params?: (schema: S) => Record<string, unknown>;
}

/** The ajv definition of `spec`, its errors' message made by `message`. */
export function defineKeyword<S>(spec: KeywordSpec<S>, message: MessageOf): CodeKeywordDefinition {
  const { params, ...definition } = spec;
  const paramsOf = (schema: unknown): Record<string, unknown> => (params ? params(schema as S) : {});
  return {
    ...definition,
    error: {
      message: ({ schema }) => message({ keyword: definition.keyword as string, params: paramsOf(schema) }),
      ...(params ? { params: ({ schema }) => stringify(paramsOf(schema)) } : {}),
    },
  };
}

/** A switch on strings (`keyword: true`): the data fails when `failsWhen` (generated code) holds; `false` imposes nothing. */
export function stringSwitchSpec(keyword: string, failsWhen: (cxt: KeywordCxt) => Code): KeywordSpec<boolean> {
  return {
    keyword,
    type: 'string',
    schemaType: 'boolean',
    metaSchema: { type: 'boolean' },
    code(cxt: KeywordCxt) {
      if (cxt.schema !== true) return;
      cxt.fail(failsWhen(cxt));
    },
  };
}
