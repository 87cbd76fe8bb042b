/**
 * String length in Unicode code points (a surrogate pair counts once), as
 * JSON Schema and ajv's minLength/maxLength count it, without allocating:
 * `Array.from(s).length` builds an array of the whole input. Counting is
 * only needed when the UTF-16 length lies in [from, to]: outside it the
 * UTF-16 length decides alone (code points ≤ units ≤ 2 × code points).
 */
import { _ } from 'ajv';
import type { CodeGen, Name } from 'ajv';

/** Code points of s when s.length is in [from, to]; s.length otherwise. */
export function codePointLength(s: string, from = 0, to = Infinity): number {
  const n = s.length;
  if (n < from || n > to) return n;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    count++;
  }
  return count;
}

/**
 * The same in generated code, inlined (standalone code then needs no
 * runtime module, ES module or CommonJS alike). Returns the variable.
 */
export function codePointLengthCode(gen: CodeGen, data: Name, from: number, to: number): Name {
  const len = gen.let('len', _`${data}.length`);
  gen.if(_`${len} >= ${from} && ${len} <= ${to}`, () => {
    const count = gen.let('cp', 0);
    gen.forRange('i', 0, len, (i) => {
      gen.if(_`(${data}.charCodeAt(${i}) & 0xfc00) === 0xd800 && (${data}.charCodeAt(${i} + 1) & 0xfc00) === 0xdc00`, () => gen.code(_`${i}++`));
      gen.code(_`${count}++`);
    });
    gen.assign(len, count);
  });
  return len;
}
