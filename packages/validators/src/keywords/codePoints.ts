/**
 * String length in Unicode code points (a surrogate pair counts once), as
 * JSON Schema and ajv's minLength/maxLength count it, without allocating:
 * `Array.from(s).length` builds an array of the whole input.
 */
import { _ } from "ajv";
import type { CodeGen, Name } from "ajv";

export function codePointLength(s: string): number {
  const n = s.length;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    count++;
  }
  return count;
}

/**
 * The counter as a name in generated code. Standalone code requires ajv's
 * own runtime function (the one ajv's maxLength uses), which counts the same.
 */
export function codePointLengthFunc(gen: CodeGen): Name {
  return gen.scopeValue("func", { ref: codePointLength, code: _`require("ajv/dist/runtime/ucs2length").default` });
}
